# label: safe
# family: template
# sink-line: 18
# why: The page source is a Final literal layout concatenated with a literal block; the search term is passed as a context variable.
from typing import Final

from flask import Flask, render_template_string, request

app = Flask(__name__)

BASE_LAYOUT: Final = "<html><head><title>{{ title }}</title></head><body>"


@app.route("/search")
def search() -> str:
    term = request.args.get("q", "")
    source = BASE_LAYOUT + "<p>You searched for {{ term }}</p></body></html>"
    return render_template_string(source, title="Search", term=term)


if __name__ == "__main__":
    app.run(debug=False)
