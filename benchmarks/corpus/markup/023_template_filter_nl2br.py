# label: vulnerable
# family: markup
# sink-line: 13
# why: The nl2br template filter wraps the user's message in Markup after only replacing newlines, so HTML in the message is not escaped.
from flask import Flask, render_template_string, request
from markupsafe import Markup

app = Flask(__name__)


@app.template_filter("nl2br")
def nl2br(value: str) -> Markup:
    return Markup(value.replace("\n", "<br>\n"))


@app.post("/messages/preview")
def preview_message() -> str:
    message = request.form.get("message", "")
    return render_template_string("<div class='msg'>{{ message|nl2br }}</div>", message=message)


if __name__ == "__main__":
    app.run(debug=False)
