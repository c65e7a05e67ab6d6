# label: safe
# family: logging
# sink-line: 14
# why: The message is pre-built with str.format but no arguments are passed, so logging does not apply % formatting to it.
import logging
import sys

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger("cleanup")


def cleanup(paths: list[str]) -> None:
    for path in paths:
        logger.info("removing {} ({} chars)".format(path, len(path)))


if __name__ == "__main__":
    cleanup(sys.argv[1:])
