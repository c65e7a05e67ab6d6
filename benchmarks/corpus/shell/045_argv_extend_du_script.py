# label: vulnerable
# family: shell
# sink-line: 17
# why: extend adds -c and a du command holding the requested folder, so the folder name is shell syntax.
import subprocess


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def disk_usage(request: Request) -> str:
    folder = request.args.get("folder", ".")
    argv = ["sh"]
    argv.extend(["-c", f"du -sh {folder}"])
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    out, _ = proc.communicate()
    return out
