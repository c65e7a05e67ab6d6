# label: safe
# family: markup
# sink-line: 14
# why: The query parameter is passed through markupsafe.escape before interpolation, so the f-string wrapped in Markup is safe (a checker cannot prove this).
from flask import Flask, request
from markupsafe import Markup, escape

app = Flask(__name__)


@app.route("/filter")
def active_filter() -> str:
    category = request.args.get("category", "all")
    chip = Markup(f"<span class='chip'>Category: {escape(category)}</span>")
    return str(chip)


if __name__ == "__main__":
    app.run(debug=False)
