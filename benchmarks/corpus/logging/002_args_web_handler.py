# label: safe
# family: logging
# sink-line: 19
# why: The untrusted username is passed as a logging argument, so it is substituted into a literal format and never interpreted as a format string.
import logging

logger = logging.getLogger("auth")


class Request:
    def __init__(self, form: dict[str, str], remote_addr: str) -> None:
        self.form = form
        self.remote_addr = remote_addr


def login(request: Request, check_password: bool) -> int:
    username = request.form.get("username", "")
    if not check_password:
        logger.warning("failed login for %s from %s", username, request.remote_addr)
        return 401
    return 200
