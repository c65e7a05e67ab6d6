# label: safe
# family: logging
# sink-line: 20
# why: The f-string only interpolates a module-level literal constant, so the format string is literal while user data goes in the arguments.
import logging
from typing import Final

SERVICE: Final = "billing"
logger = logging.getLogger(SERVICE)


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def refund(request: Request) -> None:
    order_id = request.args["order"]
    amount = request.args.get("amount", "0")
    logger.info(f"[{SERVICE}] refund requested order=%s amount=%s", order_id, amount)
