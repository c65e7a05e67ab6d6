# label: vulnerable
# family: template
# sink-line: 12
# why: The subject line given on the command line is %-formatted into the Jinja source of the mail-merge template before compilation.
import sys

import jinja2


def build_message(subject: str, recipients: list[str]) -> list[str]:
    source = "Subject: %s\n\nHello {{ recipient }},\nPlease see the attached notes.\n" % subject
    template = jinja2.Template(source)
    return [template.render(recipient=r) for r in recipients]


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit("usage: merge.py SUBJECT RECIPIENT...")
    for message in build_message(sys.argv[1], sys.argv[2:]):
        print(message)
