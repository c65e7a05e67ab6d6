# label: vulnerable
# family: logging
# sink-line: 23
# why: logger.exception receives an f-string containing the uploaded filename plus an argument, so specifiers in the filename are interpreted.
import csv
import io
import logging

logger = logging.getLogger("csv-upload")


class Request:
    def __init__(self, filename: str, body: bytes) -> None:
        self.filename = filename
        self.body = body


def parse_upload(request: Request) -> list[dict[str, str]]:
    try:
        reader = csv.DictReader(io.StringIO(request.body.decode("utf-8")))
        return list(reader)
    except UnicodeDecodeError:
        logger.exception(f"could not decode {request.filename} (%d bytes)", len(request.body))
        return []
