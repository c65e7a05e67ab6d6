# label: safe
# family: logging
# sink-line: 14
# why: logger.log is called with a literal format and the level name and value from argv are only arguments.
import logging
import sys

logger = logging.getLogger("config-check")


def check(settings: dict[str, str]) -> None:
    for key, value in settings.items():
        level = logging.WARNING if not value else logging.DEBUG
        logger.log(level, "setting %s=%r", key, value)


if __name__ == "__main__":
    pairs = dict(arg.split("=", 1) for arg in sys.argv[1:] if "=" in arg)
    check(pairs)
