# label: vulnerable
# family: shell
# sink-line: 15
# why: Wrapping the message in double quotes does not stop $(...) or backticks from executing inside os.system's shell.
import os


class Request:
    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


def append_note(request: Request, notes_file: str) -> int:
    note = request.form.get("note", "").replace("\n", " ")
    return os.system(f'echo "{note}" >> {notes_file}')
