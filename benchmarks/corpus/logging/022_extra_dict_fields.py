# label: safe
# family: logging
# sink-line: 18
# why: User data travels in 'extra' and as an argument of a literal format string, so it is never interpreted as a format.
import logging

logger = logging.getLogger("api")


class Request:
    def __init__(self, path: str, user_agent: str, client_ip: str) -> None:
        self.path = path
        self.user_agent = user_agent
        self.client_ip = client_ip


def log_request(request: Request, status: int) -> None:
    logger.info(
        "request completed status=%d path=%s",
        status,
        request.path,
        extra={"user_agent": request.user_agent, "client_ip": request.client_ip},
    )
