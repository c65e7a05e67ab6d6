# label: vulnerable
# family: logging
# sink-line: 19
# why: Both the message and its arguments come from the client's JSON body, so the client fully controls the format string passed to logging.
import json
import logging

logger = logging.getLogger("client-errors")


class Request:
    def __init__(self, body: bytes) -> None:
        self.body = body


def report_client_error(request: Request) -> int:
    payload = json.loads(request.body)
    level = logging.ERROR if payload.get("fatal") else logging.WARNING
    logger.log(level, payload["message"], *payload.get("args", []))
    return 204
