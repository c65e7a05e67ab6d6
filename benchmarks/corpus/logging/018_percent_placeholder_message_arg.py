# label: safe
# family: logging
# sink-line: 17
# why: The untrusted text is the sole argument to a literal '%s' format, so it is substituted but never parsed as a format.
import logging
import sys

logger = logging.getLogger("feedback")


def ingest(lines: list[str]) -> int:
    count = 0
    for line in lines:
        text = line.rstrip("\n")
        if not text:
            continue
        logger.error("%s", text)
        count += 1
    return count


if __name__ == "__main__":
    ingest(sys.stdin.readlines())
