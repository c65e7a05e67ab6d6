# label: safe
# family: logging
# sink-line: 20
# why: The %(name)s template is a literal and the untrusted values are only in the mapping argument.
import logging

logger = logging.getLogger("signup")


class Request:
    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


def signup(request: Request) -> None:
    details = {
        "email": request.form.get("email", ""),
        "plan": request.form.get("plan", "free"),
    }
    logger.critical("new signup %(email)s on plan %(plan)s", details)
