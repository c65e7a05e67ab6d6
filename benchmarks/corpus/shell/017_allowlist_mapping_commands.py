# label: safe
# family: shell
# sink-line: 25
# why: The requested action is mapped through a dict of literal commands, so only those fixed strings can reach the shell.
import subprocess


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


ACTIONS = {
    "restart": "systemctl restart nginx",
    "reload": "systemctl reload nginx",
    "status": "systemctl status nginx --no-pager",
}


def admin_action(request: Request) -> str:
    action = request.args.get("action", "status")
    if action not in ("restart", "reload", "status"):
        raise PermissionError(action)
    cmd = ACTIONS[action]
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout
