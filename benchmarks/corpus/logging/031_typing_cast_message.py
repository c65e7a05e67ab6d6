# label: vulnerable
# family: logging
# sink-line: 18
# why: typing.cast(str, ...) does not sanitise the request's note, which is placed in the format string and logged with an argument.
import logging
from typing import Any, cast

logger = logging.getLogger("orders")


class Request:
    def __init__(self, form: dict[str, Any]) -> None:
        self.form = form


def place_order(request: Request, order_id: int) -> None:
    note = cast(str, request.form.get("note"))
    logger.info("order %d note: " + note, order_id)
