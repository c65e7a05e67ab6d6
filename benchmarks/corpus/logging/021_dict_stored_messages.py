# label: vulnerable
# family: logging
# sink-line: 22
# why: The messages dict stores text built from the request's reason field, and the chosen entry is logged with an argument.
import logging

logger = logging.getLogger("moderation")


class Request:
    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


def moderate(request: Request, post_id: int) -> None:
    reason = request.form.get("reason", "no reason given")
    messages: dict[str, str] = {
        "hide": "post %d hidden: " + reason,
        "delete": "post %d deleted: " + reason,
    }
    action = "delete" if request.form.get("hard") == "1" else "hide"
    logger.warning(messages[action], post_id)
