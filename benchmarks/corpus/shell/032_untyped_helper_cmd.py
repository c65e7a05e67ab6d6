# label: vulnerable
# family: shell
# sink-line: 19
# why: The unannotated helper returns the raw 'format' form field, which is concatenated into a shell=True command.
import subprocess


class Request:
    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


def output_format(request):
    return request.form.get("format", "pdf")


def render_document(request: Request, source: str) -> bytes:
    fmt = output_format(request)
    return subprocess.check_output(
        "pandoc " + source + " -t " + fmt + " -o -", shell=True
    )
