# label: vulnerable
# family: logging
# sink-line: 13
# why: The Any-typed message originates from a queue payload and is used as the format string together with an argument.
import json
import logging
from typing import Any

logger = logging.getLogger("worker")


def log_result(message: Any, job_id: int) -> None:
    logger.info(message, job_id)


def process(raw: str) -> None:
    payload = json.loads(raw)
    job_id = int(payload["id"])
    log_result(payload.get("status_message", "job %d done"), job_id)
