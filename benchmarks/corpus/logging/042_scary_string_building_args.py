# label: safe
# family: logging
# sink-line: 19
# why: Despite heavy string building nearby, the format passed to logging is assembled only from literals, and the user value is an argument.
import logging

logger = logging.getLogger("cache")


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def cache_lookup(request: Request, hit: bool) -> str:
    key = "user:" + request.args.get("id", "0") + ":profile"
    outcome = "HIT" if hit else "MISS"
    fmt = "cache " + outcome + " for key %s"
    logger.debug(fmt, key)
    return key
