# label: safe
# family: template
# sink-line: 16
# why: The accent color is accepted only if it fully matches a '#rrggbb' hex regex, so no template syntax can reach the source (a checker cannot prove this).
import re
import sys

import jinja2

HEX_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


def styled_heading(color: str, text: str) -> str:
    if HEX_COLOR.fullmatch(color) is None:
        raise ValueError(f"not a hex color: {color!r}")
    template = jinja2.Template("<h1 style='color: " + color + "'>{{ text }}</h1>")
    return template.render(text=text)


if __name__ == "__main__":
    print(styled_heading(sys.argv[1], sys.argv[2]))
