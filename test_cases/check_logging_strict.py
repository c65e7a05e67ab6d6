"""logging (strict profile): msg is always a literal string (PEP 675, Appendix A)."""

import logging
from typing import Any, Dict

from typing_extensions import LiteralString, assert_type

logger = logging.getLogger(__name__)
adapter = logging.LoggerAdapter(logger, {"request": "r1"})


def accepted(external: str, name: LiteralString) -> None:
    logger.info("Received: %s", external)
    logger.info("done")
    logger.info(f"{name} done")
    logger.info("done", exc_info=True)
    logger.log(logging.INFO, "%s", external)
    logging.info("%s", external)
    adapter.info("%s", external)


def rejected(external: str, some_dict: Dict[str, Any], error: Exception) -> None:
    logger.info(f"Received: {external}")  # E
    logger.info(f"Received: {external}", some_dict)  # E
    logger.info(external)  # E
    logger.info(error)  # E
    logger.info(msg=external)  # E
    logger.debug(external)  # E
    logger.warning(external)  # E
    logger.error(external)  # E
    logger.exception(external)  # E
    logger.critical(external)  # E
    logger.fatal(external)  # E
    logger.log(logging.INFO, external)  # E
    logging.info(external)  # E
    logging.log(logging.INFO, external)  # E
    adapter.info(external)  # E
    adapter.log(logging.INFO, external)  # E


def return_types() -> None:
    assert_type(logger.info("x"), None)
    assert_type(logging.info("x %s", 1), None)
