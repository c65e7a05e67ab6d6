# label: vulnerable
# family: template
# sink-line: 17
# why: The 'template' field of the JSON request body is compiled directly with Environment.from_string, giving the client full template execution.
import json
from typing import Any

from jinja2 import Environment

env = Environment(autoescape=True)


def handle_preview(raw_body: bytes) -> dict[str, Any]:
    payload = json.loads(raw_body)
    template_text: str = str(payload.get("template", ""))
    variables: dict[str, Any] = dict(payload.get("variables", {}))
    compiled = env.from_string(template_text)
    return {"html": compiled.render(**variables)}


if __name__ == "__main__":
    print(handle_preview(b'{"template": "Hi {{ who }}", "variables": {"who": "team"}}'))
