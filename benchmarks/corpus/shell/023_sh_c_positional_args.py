# label: safe
# family: shell
# sink-line: 19
# why: The 'sh -c' script is a literal and the user values are passed as positional parameters $1 and $2, which the shell does not re-parse.
import subprocess


class Request:
    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


SCRIPT = 'mkdir -p "$(dirname -- "$1")" && tar czf "$1" -C "$2" .'


def export_archive(request: Request, user_dir: str) -> str:
    name = request.form.get("archive_name", "export").replace("/", "_")
    dest = f"/srv/exports/{name}.tar.gz"
    subprocess.run(["sh", "-c", SCRIPT, "export-sh", dest, user_dir], check=True)
    return dest
