"""logging (default profile): with formatting arguments, msg is a %-format string and must be
literal; a call without arguments accepts any msg, as the logging module never formats it.
"""

import logging
from typing import Any, Dict, List

from typing_extensions import LiteralString, assert_type

logger = logging.getLogger(__name__)
adapter = logging.LoggerAdapter(logger, {"request": "r1"})


def accepted(external: str, data: Dict[str, Any], name: LiteralString, error: Exception) -> None:
    logger.info("Received: %s", external)
    logger.info("Received %s from %s", data, external)
    logger.info(f"Received: {external}")
    logger.info(external)
    logger.info(error)
    logger.info(external, exc_info=True)
    logger.info(msg=external)
    logger.info(f"{name}: %s", external)
    logger.debug("%s", external)
    logger.warning("%s", external)
    logger.error("%s", external, stack_info=True, stacklevel=2, extra={"k": 1})
    logger.exception("failed: %s", external)
    logger.critical("%s", external)
    logger.fatal("%s", external)
    logger.log(logging.INFO, "%s", external)
    logger.log(logging.INFO, external)
    logging.info("Received: %s", external)
    logging.debug("%s", external)
    logging.warning("%s", external)
    logging.error("%s", external)
    logging.exception("%s", external)
    logging.critical("%s", external)
    logging.fatal("%s", external)
    logging.log(logging.INFO, "%s", external)
    logging.info(external)
    adapter.info("Received: %s", external)
    adapter.log(logging.INFO, "%s", external)
    adapter.info(external)


def rejected(external: str, some_dict: Dict[str, Any], error: Exception, args: List[str]) -> None:
    logger.info(f"Received: {external}", some_dict)  # E
    logger.info(external, some_dict)  # E
    logger.info("Received: " + external, 1)  # E
    logger.info(error, 1)  # E
    logger.debug(external, 1)  # E
    logger.warning(external, 1)  # E
    logger.error(external, 1)  # E
    logger.exception(external, 1)  # E
    logger.critical(external, 1)  # E
    logger.fatal(external, 1)  # E
    logger.log(logging.INFO, external, 1)  # E
    logging.info(external, 1)  # E
    logging.debug(external, 1)  # E
    logging.warning(external, 1)  # E
    logging.error(external, 1)  # E
    logging.exception(external, 1)  # E
    logging.critical(external, 1)  # E
    logging.fatal(external, 1)  # E
    logging.log(logging.INFO, external, 1)  # E
    adapter.info(external, 1)  # E
    adapter.debug(external, 1)  # E
    adapter.warning(external, 1)  # E
    adapter.error(external, 1)  # E
    adapter.exception(external, 1)  # E
    adapter.critical(external, 1)  # E
    adapter.log(logging.INFO, external, 1)  # E
    # `*args` may be empty: a checker may take the overload without formatting arguments.
    logger.info(external, *args)  # E?


def return_types() -> None:
    assert_type(logger.info("x"), None)
    assert_type(logger.info("x %s", 1), None)
    assert_type(logging.log(logging.INFO, "x %s", 1), None)
