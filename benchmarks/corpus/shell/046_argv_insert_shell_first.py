# label: vulnerable
# family: shell
# sink-line: 17
# why: The shell is inserted in front of a -c script that interpolates the host from the form.
import subprocess


class Request:
    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


def ping(request: Request) -> int:
    host = request.form["host"]
    argv = ["-c", f"ping -c 1 {host}"]
    argv.insert(0, "sh")
    return subprocess.call(argv)
