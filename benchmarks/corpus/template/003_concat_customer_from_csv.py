# label: vulnerable
# family: template
# sink-line: 18
# why: Customer names read from an uploaded CSV file are concatenated into the Jinja source, so a name containing '{{ ... }}' is executed as template code.
import csv
import sys

from jinja2 import Environment

env = Environment(autoescape=True)


def render_letters(csv_path: str) -> list[str]:
    letters: list[str] = []
    with open(csv_path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            customer: str = row["customer"]
            template = env.from_string("Dear " + customer + ",\n\nYour balance is {{ balance }}.\n")
            letters.append(template.render(balance=row["balance"]))
    return letters


if __name__ == "__main__":
    for letter in render_letters(sys.argv[1]):
        print(letter)
