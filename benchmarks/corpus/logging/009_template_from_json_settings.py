# label: vulnerable
# family: logging
# sink-line: 22
# why: The log template comes from tenant-supplied JSON settings (json.loads returns Any) and is used as the format with arguments, so '%(...)s' and '%*d' specifiers are attacker-chosen.
import json
import logging
from typing import Any

logger = logging.getLogger("notifications")


class Request:
    def __init__(self, body: bytes, tenant: str) -> None:
        self.body = body
        self.tenant = tenant


def save_settings(request: Request, store: dict[str, Any]) -> None:
    settings = json.loads(request.body)
    store[request.tenant] = settings
    template = settings.get("audit_template", "settings updated by %s")
    logger.info(template, request.tenant)
