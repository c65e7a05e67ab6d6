# label: vulnerable
# family: logging
# sink-line: 19
# why: Each line read from an untrusted access log becomes the format string for a warning that also passes the source name, so '%' sequences in the line are interpreted.
import logging
import sys

logger = logging.getLogger("logwatch")

SUSPICIOUS = ("../", "<script", "UNION SELECT")


def scan(path: str) -> int:
    hits = 0
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if any(marker in line for marker in SUSPICIOUS):
                hits += 1
                logger.warning(line.strip() + "  [source=%s]", path)
    return hits


if __name__ == "__main__":
    print(scan(sys.argv[1]))
