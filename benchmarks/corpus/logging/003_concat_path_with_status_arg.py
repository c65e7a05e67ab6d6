# label: vulnerable
# family: logging
# sink-line: 21
# why: The request path is concatenated into the message and a status argument is passed, so '%' sequences in the path are treated as format specifiers.
import logging
import time

log = logging.getLogger("http.access")


class Request:
    def __init__(self, method: str, path: str) -> None:
        self.method = method
        self.path = path


def handle(request: Request) -> int:
    started = time.monotonic()
    status = 404 if request.path.startswith("/private") else 200
    elapsed_ms = (time.monotonic() - started) * 1000
    log.info(request.method + " " + request.path + " -> %d (%.1f ms)", status, elapsed_ms)
    return status
