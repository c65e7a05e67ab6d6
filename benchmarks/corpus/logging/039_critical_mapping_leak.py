# label: vulnerable
# family: logging
# sink-line: 20
# why: The reason from the request is part of the format string while a dict argument holding the session token is passed, so '%(token)s' in the reason leaks the token into logs.
import logging

logger = logging.getLogger("security")


class Request:
    def __init__(self, form: dict[str, str], session_token: str, user: str) -> None:
        self.form = form
        self.session_token = session_token
        self.user = user


def report_abuse(request: Request) -> None:
    context = {"user": request.user, "token": request.session_token}
    reason = request.form.get("reason", "")
    logger.critical(f"abuse report by %(user)s: {reason}", context)
