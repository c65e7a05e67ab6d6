# label: vulnerable
# family: markup
# sink-line: 14
# why: Lines of an uploaded changelog file are joined into list items and the whole string is wrapped in Markup without escaping.
import sys

from markupsafe import Markup


def changelog_html(path: str) -> Markup:
    with open(path, encoding="utf-8") as fh:
        entries = [line.strip() for line in fh if line.strip()]
    body = "".join(f"<li>{entry}</li>" for entry in entries)
    return Markup("<ul class='changelog'>" + body + "</ul>")


if __name__ == "__main__":
    print(changelog_html(sys.argv[1]))
