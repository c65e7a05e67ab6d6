# label: vulnerable
# family: markup
# sink-line: 21
# why: The search term and the result snippet come from the request, a str-returning helper wraps the term in <mark> tags, and Markup trusts the result.
from flask import Flask, request
from markupsafe import Markup

app = Flask(__name__)


def highlight(text: str, term: str) -> str:
    if not term:
        return text
    return text.replace(term, f"<mark>{term}</mark>")


@app.route("/search/snippet")
def snippet() -> str:
    term = request.args.get("q", "")
    text = request.args.get("text", "")
    html = Markup(highlight(text, term))
    return str(Markup("<p class='snippet'>") + html + Markup("</p>"))


if __name__ == "__main__":
    app.run(debug=False)
