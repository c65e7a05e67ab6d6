# label: vulnerable
# family: logging
# sink-line: 21
# why: Header names and values from the request are joined into the message, which is then logged with a count argument, so '%' in a header is interpreted.
import logging

logger = logging.getLogger("proxy")


class Request:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


def forward(request: Request) -> None:
    parts: list[str] = []
    for name, value in request.headers.items():
        if name.lower().startswith("x-"):
            parts.append(f"{name}={value}")
    summary = "custom headers: " + ", ".join(parts)
    logger.debug(summary + " (%d total headers)", len(request.headers))
