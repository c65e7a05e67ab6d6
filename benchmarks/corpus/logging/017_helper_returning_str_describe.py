# label: vulnerable
# family: logging
# sink-line: 21
# why: The helper returns a str containing the client's device name, which becomes the format string for a call that also passes an argument.
import logging

logger = logging.getLogger("devices")


class Request:
    def __init__(self, json_body: dict[str, str]) -> None:
        self.json_body = json_body


def describe_device(name: str, platform: str) -> str:
    return f"device '{name}' on {platform}"


def register(request: Request, user_id: int) -> None:
    description = describe_device(request.json_body["device_name"], request.json_body.get("platform", "?"))
    logger.info(description + " registered for user %d", user_id)
