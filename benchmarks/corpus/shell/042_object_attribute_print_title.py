# label: vulnerable
# family: shell
# sink-line: 21
# why: The job title taken from the request is stored on the PrintJob object and later formatted into a shell=True Popen command.
import subprocess


class Request:
    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


class PrintJob:
    def __init__(self, document: str, title: str, copies: int) -> None:
        self.document = document
        self.title = title
        self.copies = copies

    def submit(self) -> int:
        cmd = "lp -n %d -t '%s' %s" % (self.copies, self.title, self.document)
        proc = subprocess.Popen(cmd, shell=True)
        return proc.wait()


def print_handler(request: Request, stored_pdf: str) -> int:
    job = PrintJob(stored_pdf, request.form.get("title", "untitled"), int(request.form.get("copies", "1")))
    return job.submit()
