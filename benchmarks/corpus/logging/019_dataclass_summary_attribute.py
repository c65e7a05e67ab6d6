# label: vulnerable
# family: logging
# sink-line: 26
# why: The summary stored on the Alert dataclass is supplied by the monitoring client and used as the format string with a severity argument.
import json
import logging
from dataclasses import dataclass

logger = logging.getLogger("alerts")


@dataclass
class Alert:
    source: str
    summary: str
    severity: int


def parse_alert(raw: str) -> Alert:
    data = json.loads(raw)
    return Alert(source=data["source"], summary=data["summary"], severity=int(data["severity"]))


def on_alert(raw: str) -> None:
    alert = parse_alert(raw)
    logger.critical(alert.summary + " [severity=%d]", alert.severity)
