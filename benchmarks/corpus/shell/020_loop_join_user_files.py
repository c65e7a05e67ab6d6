# label: vulnerable
# family: shell
# sink-line: 19
# why: Filenames from the request are joined with spaces into a shell=True zip command in a loop, so a filename with ';' or '$()' executes commands.
import subprocess


class Request:
    def __init__(self, args: dict[str, list[str]]) -> None:
        self.args = args


def bundle(request: Request, out_path: str) -> None:
    parts = ["zip", "-q", out_path]
    for name in request.args.get("file", []):
        if name.endswith((".pdf", ".csv")):
            parts.append("uploads/" + name)
    command = " ".join(parts)
    subprocess.check_call(command, shell=True)
