import logging

log = logging.getLogger(__name__)


def run(user: str) -> None:
    log.info("user %s", user)
    log.setLevel(logging.DEBUG)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(handler)
    log.infox("x")  # error
    log.warning(f"user {user} %s", user)  # sink
