# label: safe
# family: logging
# sink-line: 20
# why: The format string is a literal; the file name and size read from argv are only formatting arguments.
import logging
import os
import sys

logging.basicConfig(format="%(levelname)s %(message)s", level=logging.DEBUG)
logger = logging.getLogger("sizes")


def report(paths: list[str]) -> None:
    for path in paths:
        try:
            size = os.path.getsize(path)
        except OSError as exc:
            logger.error("cannot stat %r: %s", path, exc)
            continue
        logger.debug("file %s is %d bytes", path, size)


if __name__ == "__main__":
    report(sys.argv[1:])
