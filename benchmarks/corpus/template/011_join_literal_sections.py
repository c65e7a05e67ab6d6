# label: safe
# family: template
# sink-line: 15
# why: The template source is a newline join of literal section strings; all report values are supplied as render context.
import sys

import jinja2


def report_template(with_totals: bool) -> jinja2.Template:
    if with_totals:
        source = "\n".join(["Report: {{ name }}", "Rows: {{ rows }}", "Total: {{ total }}"])
    else:
        source = "\n".join(["Report: {{ name }}", "Rows: {{ rows }}"])
    return jinja2.Template(source)


def main(argv: list[str]) -> None:
    name = argv[1] if len(argv) > 1 else "daily"
    print(report_template("--totals" in argv).render(name=name, rows=42, total=1234))


if __name__ == "__main__":
    main(sys.argv)
