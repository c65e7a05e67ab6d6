# label: vulnerable
# family: shell
# sink-line: 21
# why: The command templates dict is filled with the request's host value before one entry is run with shell=True.
import subprocess


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def diagnostics(request: Request) -> dict[str, str]:
    target = request.args.get("target", "127.0.0.1")
    commands: dict[str, str] = {}
    commands["dns"] = "dig +short " + target
    commands["route"] = "traceroute -m 10 " + target
    wanted = request.args.get("check", "dns")
    if wanted not in commands:
        return {"error": "unknown check"}
    out = subprocess.run(commands[wanted], shell=True, capture_output=True, text=True)
    return {wanted: out.stdout}
