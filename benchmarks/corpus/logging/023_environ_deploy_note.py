# label: vulnerable
# family: logging
# sink-line: 15
# why: The DEPLOY_NOTE environment variable is filled from the merge-request title in CI and is used as the format string with arguments.
import logging
import os
import sys

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
logger = logging.getLogger("deploy")


def announce(version: str, env_name: str) -> None:
    note = os.environ.get("DEPLOY_NOTE", "no notes")
    logger.info("deploy note: " + note + " | version=%s env=%s", version, env_name)


if __name__ == "__main__":
    announce(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "staging")
