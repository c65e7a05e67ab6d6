# label: safe
# family: template
# sink-line: 20
# why: The badge snippet comes from a helper annotated to return LiteralString that only returns literal template fragments.
from jinja2 import Environment
from typing_extensions import LiteralString

env = Environment(autoescape=True)


def badge_source(level: str) -> LiteralString:
    if level == "error":
        return "<span class='badge red'>{{ label }}</span>"
    if level == "warning":
        return "<span class='badge amber'>{{ label }}</span>"
    return "<span class='badge grey'>{{ label }}</span>"


def render_badge(level: str, label: str) -> str:
    template = env.from_string(badge_source(level))
    return template.render(label=label)


if __name__ == "__main__":
    print(render_badge("warning", "Disk almost full"))
