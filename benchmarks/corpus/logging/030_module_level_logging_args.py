# label: safe
# family: logging
# sink-line: 14
# why: Module-level logging.info receives a literal format with the environment value as an argument.
import logging
import os

logging.basicConfig(level=logging.INFO)


def startup() -> None:
    region = os.environ.get("AWS_REGION", "unknown")
    workers = int(os.environ.get("WORKERS", "4"))
    logging.info("starting service in region %s with %d workers", region, workers)


if __name__ == "__main__":
    startup()
