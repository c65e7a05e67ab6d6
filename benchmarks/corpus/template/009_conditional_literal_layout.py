# label: safe
# family: template
# sink-line: 18
# why: The layout is chosen by an if/else between two literal template strings; the user's message is passed only as a context variable.
from flask import Flask, render_template_string, request

app = Flask(__name__)


@app.route("/notice")
def notice() -> str:
    message = request.args.get("message", "")
    urgent = request.args.get("urgent") == "1"
    if urgent:
        layout = "<div class='alert alert-danger'><strong>{{ message }}</strong></div>"
    else:
        layout = "<div class='alert alert-info'>{{ message }}</div>"
    return render_template_string(layout, message=message)


if __name__ == "__main__":
    app.run(debug=False)
