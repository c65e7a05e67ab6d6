# label: vulnerable
# family: logging
# sink-line: 19
# why: The username is placed in the format string by an f-string while an argument is also passed, so '%s%s%s' or '%(x)s' in the name is interpreted by logging's % formatting.
import logging

logger = logging.getLogger("auth")


class Request:
    def __init__(self, form: dict[str, str], remote_addr: str) -> None:
        self.form = form
        self.remote_addr = remote_addr


def login(request: Request, check_password: bool) -> int:
    username = request.form.get("username", "")
    if not check_password:
        logger.warning(f"failed login for {username} from %s", request.remote_addr)
        return 401
    return 200
