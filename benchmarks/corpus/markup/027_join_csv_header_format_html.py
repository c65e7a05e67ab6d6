# label: vulnerable
# family: markup
# sink-line: 17
# why: Column names from the uploaded CSV's header row are joined into format_html's format string, so HTML in a header cell is emitted raw.
import csv
import sys

from django.utils.html import format_html
from django.utils.safestring import SafeString


def header_row(csv_path: str, total: str) -> SafeString:
    with open(csv_path, newline="", encoding="utf-8") as fh:
        headers = next(csv.reader(fh))
    cells = "".join("<th>" + name + "</th>" for name in headers)
    fmt = "<tr>" + cells + "<th class='total'>{}</th></tr>"
    return format_html(fmt, total)


if __name__ == "__main__":
    print(header_row(sys.argv[1], "42"))
