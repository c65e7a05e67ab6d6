# label: safe
# family: logging
# sink-line: 18
# why: User data is concatenated into the message but no arguments are passed, so logging never %-formats the string.
import logging

logger = logging.getLogger("uploads")


class Request:
    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files


def upload(request: Request) -> int:
    for filename, content in request.files.items():
        if len(content) > 10_000_000:
            logger.warning("rejected oversized upload: " + filename)
            return 413
    return 201
