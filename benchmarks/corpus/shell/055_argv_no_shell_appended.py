# label: safe
# family: shell
# sink-line: 16
# why: The list runs ls directly with the folder as its own argument; no shell parses it.
import subprocess


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def listing(request: Request) -> str:
    args = ["ls", "-l", "--"]
    args.append(request.args.get("folder", "."))
    return subprocess.run(args, capture_output=True, text=True).stdout
