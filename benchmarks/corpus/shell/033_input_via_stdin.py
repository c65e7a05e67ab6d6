# label: safe
# family: shell
# sink-line: 14
# why: The untrusted text is sent on stdin to a literal shell=True command, so it is data for sort, not shell syntax.
import subprocess


class Request:
    def __init__(self, body: str) -> None:
        self.body = body


def dedupe_lines(request: Request) -> str:
    proc = subprocess.run(
        "sort | uniq -c | sort -rn",
        shell=True,
        input=request.body,
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout
