# label: safe
# family: logging
# sink-line: 13
# why: The format string is one of two literals chosen by a boolean; the untrusted host is only an argument.
import logging
import sys

logger = logging.getLogger("retry")


def report_attempt(host: str, attempt: int, max_attempts: int) -> None:
    template = "retrying %s (attempt %d)" if attempt < max_attempts else "giving up on %s after %d attempts"
    logger.warning(template, host, attempt)


if __name__ == "__main__":
    for i in range(1, 4):
        report_attempt(sys.argv[1], i, 3)
