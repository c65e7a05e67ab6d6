# label: vulnerable
# family: shell
# sink-line: 18
# why: Only the pattern is quoted with shlex.quote; the log path from the request is still interpolated raw into the shell=True command.
import shlex
import subprocess


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def search(request: Request) -> str:
    pattern = shlex.quote(request.args["q"])
    log_path = request.args.get("log", "/var/log/app/current.log")
    cmd = f"grep -c {pattern} {log_path}"
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout
