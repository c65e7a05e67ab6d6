# label: vulnerable
# family: logging
# sink-line: 15
# why: The item name is pre-formatted into the message with %, then a second argument is passed, so specifiers inside the name are interpreted again by logging.
import logging
import sys

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger("importer")


def import_items(names: list[str]) -> None:
    for attempt, name in enumerate(names, start=1):
        message = "imported item '%s'" % name
        logger.info(message + " (attempt %d)", attempt)


if __name__ == "__main__":
    import_items(sys.argv[1:])
