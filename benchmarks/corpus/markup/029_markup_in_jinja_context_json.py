# label: vulnerable
# family: markup
# sink-line: 19
# why: The 'bio' field of the JSON body is wrapped in Markup before rendering, which turns off Jinja's autoescaping for it.
import json
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

env = Environment(autoescape=True)
PROFILE = env.from_string("<h1>{{ name }}</h1><div class='bio'>{{ bio }}</div>")


def render_profile(raw_body: bytes) -> str:
    payload: dict[str, Any] = json.loads(raw_body)
    name: str = str(payload.get("name", ""))
    bio: str = str(payload.get("bio", ""))
    return PROFILE.render(name=name, bio=Markup(bio))


if __name__ == "__main__":
    print(render_profile(b'{"name": "Ada", "bio": "Mathematician"}'))
