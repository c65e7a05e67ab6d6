# label: vulnerable
# family: logging
# sink-line: 20
# why: In the fallback branch the client-supplied event type is copied into the message that is then formatted with arguments.
import logging
from typing import Any

logger = logging.getLogger("webhooks")


def log_event(event: dict[str, str], duration_ms: float) -> None:
    kind = event.get("type", "")
    if kind == "push":
        msg = "push received"
    elif kind == "ping":
        msg = "ping received"
    else:
        msg = "unhandled event " + kind
    msg += " in %.1f ms"
    logger.info(msg, duration_ms)


def handle(raw: dict[str, Any]) -> None:
    log_event({"type": str(raw.get("type", ""))}, float(raw.get("ms", 0)))
