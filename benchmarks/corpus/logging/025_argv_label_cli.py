# label: vulnerable
# family: logging
# sink-line: 20
# why: The label argument from sys.argv, filled by CI from the pull-request title, is concatenated into the format string for a call that also passes arguments.
import logging
import sys
import time

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger("bench")


def main(argv: list[str]) -> None:
    # CI runs: bench.py "$PR_TITLE" 1000
    label = argv[1] if len(argv) > 1 else "run"
    iterations = int(argv[2]) if len(argv) > 2 else 1000
    started = time.perf_counter()
    total = sum(i * i for i in range(iterations))
    elapsed = time.perf_counter() - started
    logger.info(label + ": %d iterations in %.4fs (checksum %d)", iterations, elapsed, total)


if __name__ == "__main__":
    main(sys.argv)
