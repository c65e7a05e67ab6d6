# label: safe
# family: template
# sink-line: 19
# why: The user's theme choice is only a key into a dict of literal template sources, so only those literals can be compiled.
from jinja2 import Environment
from typing_extensions import LiteralString

env = Environment(autoescape=True)

THEMES: dict[str, LiteralString] = {
    "plain": "<p>{{ title }}</p>",
    "card": "<div class='card'><h3>{{ title }}</h3></div>",
    "banner": "<section class='banner'><h1>{{ title }}</h1></section>",
}


def render_title(theme: str, title: str) -> str:
    source = THEMES.get(theme, THEMES["plain"])
    return env.from_string(source).render(title=title)


if __name__ == "__main__":
    print(render_title("card", "Spring sale"))
