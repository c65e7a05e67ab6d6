# label: safe
# family: shell
# sink-line: 18
# why: The user path is passed as a separate argv element after '--' without a shell, so it cannot be parsed as a command or option.
import subprocess


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


REPO_DIR = "/srv/git/website"


def file_history(request: Request) -> str:
    path = request.args["path"]
    result = subprocess.run(
        ["git", "log", "--oneline", "-n", "20", "--", path],
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout
