# label: vulnerable
# family: markup
# sink-line: 16
# why: The comment from the JSON body is %-formatted into a plain str first, and only the result is wrapped in Markup, so nothing is escaped.
from flask import Flask, jsonify, request
from flask.wrappers import Response
from markupsafe import Markup

app = Flask(__name__)


@app.post("/comments/render")
def render_comment() -> Response:
    payload = request.get_json(silent=True) or {}
    comment: str = str(payload.get("comment", ""))
    html = Markup("<blockquote class='comment'>%s</blockquote>" % comment)
    return jsonify({"html": str(html)})


if __name__ == "__main__":
    app.run(debug=False)
