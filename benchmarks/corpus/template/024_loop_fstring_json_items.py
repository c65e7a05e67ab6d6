# label: vulnerable
# family: template
# sink-line: 18
# why: Checklist items from the JSON request body are appended to the template source with f-strings, so an item like '{{ config }}' is evaluated.
from flask import Flask, render_template_string, request

app = Flask(__name__)


@app.post("/checklist/preview")
def preview_checklist() -> str:
    payload = request.get_json(silent=True) or {}
    items: list[str] = [str(item) for item in payload.get("items", [])]
    source = "<h2>{{ title }}</h2><ul>"
    for item in items:
        source += f"<li>{item}</li>"
    source += "</ul>"
    return render_template_string(source, title="Checklist")


if __name__ == "__main__":
    app.run(debug=False)
