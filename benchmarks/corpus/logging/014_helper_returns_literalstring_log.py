# label: safe
# family: logging
# sink-line: 23
# why: The helper is annotated to return LiteralString and only returns literal templates, while user data is passed as arguments.
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import LiteralString

logger = logging.getLogger("payments")


def outcome_template(success: bool) -> LiteralString:
    if success:
        return "payment %s captured for %s"
    return "payment %s declined for %s"


def record(payment_id: str, customer_email: str, success: bool) -> None:
    logger.info(outcome_template(success), payment_id, customer_email)
