# label: safe
# family: logging
# sink-line: 26
# why: The event kind selects a template from a dict of literal strings after an allow-list check, so only literal formats reach logging.
import logging

logger = logging.getLogger("audit")

TEMPLATES = {
    "create": "user %s created %s",
    "delete": "user %s deleted %s",
    "share": "user %s shared %s",
}


class Request:
    def __init__(self, form: dict[str, str], user: str) -> None:
        self.form = form
        self.user = user


def audit(request: Request) -> None:
    kind = request.form.get("kind", "")
    if kind not in ("create", "delete", "share"):
        raise ValueError("unknown audit kind")
    logger.info(TEMPLATES[kind], request.user, request.form.get("object", "?"))
