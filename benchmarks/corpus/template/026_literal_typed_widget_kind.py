# label: safe
# family: template
# sink-line: 12
# why: The widget kind is typed as a Literal of two strings, so the concatenated Django template source can only contain those literal class names.
from typing import Literal

from django.template import Context, Template


def render_widget(kind: Literal["table", "list"], title: str, rows: list[str]) -> str:
    source = "<div class='widget widget-" + kind + "'><h4>{{ title }}</h4>{% for r in rows %}<p>{{ r }}</p>{% endfor %}</div>"
    template = Template(source)
    return template.render(Context({"title": title, "rows": rows}))


def dashboard(titles: dict[str, list[str]]) -> str:
    parts = [render_widget("table", name, rows) for name, rows in titles.items()]
    return "\n".join(parts)
