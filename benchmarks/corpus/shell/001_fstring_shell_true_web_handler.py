# label: vulnerable
# family: shell
# sink-line: 15
# why: The 'host' query parameter is interpolated into a shell=True command, so '; rm -rf ~' runs as a second command.
import subprocess


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def ping_handler(request: Request) -> tuple[int, str]:
    host = request.args.get("host", "localhost")
    proc = subprocess.run(
        f"ping -c 3 -W 2 {host}",
        shell=True,
        capture_output=True,
        text=True,
        timeout=15,
    )
    status = 200 if proc.returncode == 0 else 502
    return status, proc.stdout
