# label: safe
# family: logging
# sink-line: 20
# why: Values from the JSON body are passed only as arguments to a literal format string.
import json
import logging
from typing import Any

logger = logging.getLogger("metrics")


class Request:
    def __init__(self, body: bytes) -> None:
        self.body = body


def ingest(request: Request) -> int:
    points: list[dict[str, Any]] = json.loads(request.body)
    for point in points:
        logger.debug("metric %s=%s at %s", point.get("name"), point.get("value"), point.get("ts"))
    return len(points)
