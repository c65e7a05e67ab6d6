# label: safe
# family: logging
# sink-line: 13
# why: The message is fully pre-formatted with % and logged without arguments, so logging never reinterprets it.
import logging
import sys

logger = logging.getLogger("sync")


def sync(remote: str, files: list[str]) -> None:
    for name in files:
        logger.debug("uploading %s to %s" % (name, remote))


if __name__ == "__main__":
    sync(sys.argv[1], sys.argv[2:])
