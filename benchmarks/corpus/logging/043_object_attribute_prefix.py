# label: vulnerable
# family: logging
# sink-line: 18
# why: The tenant display name from the request is stored as the reporter's prefix and becomes part of the format string for calls that pass arguments.
import logging

class Request:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


class StepReporter:
    def __init__(self, tenant_name: str) -> None:
        self.prefix = "[" + tenant_name + "] "
        self.log = logging.getLogger("pipeline")

    def failed(self, step: str, code: int) -> None:
        self.log.error(self.prefix + "step %s failed with code %d", step, code)


def run_pipeline(request: Request, steps: list[str]) -> None:
    reporter = StepReporter(request.headers.get("X-Tenant-Name", "default"))
    for step in steps:
        reporter.failed(step, 1)
