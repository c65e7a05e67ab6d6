# label: vulnerable
# family: shell
# sink-line: 19
# why: Although an argument list is used, it starts 'sh -c' with a command string containing the user-chosen archive name, so the shell parses it.
import subprocess


class Request:
    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


EXPORT_ROOT = "/srv/exports"


def export_archive(request: Request, user_dir: str) -> str:
    name = request.form.get("archive_name", "export")
    dest = f"{EXPORT_ROOT}/{name}.tar.gz"
    subprocess.run(["sh", "-c", f"tar czf {dest} -C {user_dir} ."], check=True)
    return dest
