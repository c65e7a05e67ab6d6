# label: safe
# family: markup
# sink-line: 16
# why: Each todo item is added to a literal Markup with +, and Markup.__add__ escapes the plain-str item before concatenating.
from flask import Flask, request
from markupsafe import Markup

app = Flask(__name__)


@app.post("/todos/preview")
def preview_todos() -> str:
    items = request.form.getlist("item")
    html = Markup("<ul>")
    for item in items:
        html += Markup("<li>") + item + Markup("</li>")
    html += Markup("</ul>")
    return str(html)


if __name__ == "__main__":
    app.run(debug=False)
