# label: safe
# family: logging
# sink-line: 19
# why: The format string is a join of literal parts, so it is literal, and the user values are passed as arguments.
import logging

logger = logging.getLogger("checkout")

FIELDS = ("cart=%s", "items=%d", "total=%.2f")


class Request:
    def __init__(self, cookies: dict[str, str]) -> None:
        self.cookies = cookies


def checkout(request: Request, items: int, total: float) -> None:
    template = " ".join(FIELDS)
    logger.info(template, request.cookies.get("cart_id", "-"), items, total)
