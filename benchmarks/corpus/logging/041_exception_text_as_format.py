# label: vulnerable
# family: logging
# sink-line: 29
# why: The parser error text echoes the attacker's input and is used as the format string with a position argument.
import logging
from typing import Any

logger = logging.getLogger("query-parser")


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def parse_filter(expr: str) -> list[str]:
    tokens = expr.split()
    for token in tokens:
        if not token.isidentifier() and token not in ("=", "and", "or"):
            raise ValueError(f"unexpected token {token!r}")
    return tokens


def handle(request: Request) -> Any:
    expr = request.args.get("filter", "")
    try:
        return parse_filter(expr)
    except ValueError as exc:
        logger.debug(str(exc) + " in filter of length %d", len(expr))
        return None
