# label: safe
# family: logging
# sink-line: 22
# why: The template is extended only with literal ' %s=%s' fragments in the loop while field names and values are passed as arguments.
import logging
from typing import Any

logger = logging.getLogger("forms")


class Request:
    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


def log_submission(request: Request) -> None:
    template = "form submitted:"
    args: list[Any] = []
    for key, value in sorted(request.form.items()):
        template += " %s=%s"
        args.extend([key, value])
    logger.info(template, *args)
