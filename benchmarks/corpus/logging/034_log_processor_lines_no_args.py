# label: safe
# family: logging
# sink-line: 16
# why: Lines from the untrusted file are logged as messages without arguments, so logging never %-formats them.
import logging
import sys

logging.basicConfig(format="%(name)s: %(message)s", level=logging.INFO)
logger = logging.getLogger("replay")


def replay(path: str) -> int:
    count = 0
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            logger.info(line.rstrip("\n"))
            count += 1
    return count


if __name__ == "__main__":
    replay(sys.argv[1])
