# label: vulnerable
# family: logging
# sink-line: 21
# why: The unannotated helper returns text containing the user-agent header, which is logged as the format string with an argument.
import logging

logger = logging.getLogger("bots")


class Request:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


def bot_message(request):
    return "blocked bot: " + request.headers.get("User-Agent", "")


def filter_bots(request: Request, rule_id: int) -> bool:
    if "bot" in request.headers.get("User-Agent", "").lower():
        logger.info(bot_message(request) + " (rule %d)", rule_id)
        return True
    return False
