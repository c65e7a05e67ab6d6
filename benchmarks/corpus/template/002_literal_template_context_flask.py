# label: safe
# family: template
# sink-line: 14
# why: The template source is a literal and the user's name is only passed as a context variable, which Jinja autoescapes and never evaluates.
from flask import Flask, render_template_string, request

app = Flask(__name__)


@app.route("/hello")
def hello() -> str:
    name = request.args.get("name", "stranger")
    count = request.args.get("count", "0")
    return render_template_string("<h1>Hello, {{ name }}!</h1><p>You have {{ count }} new messages.</p>", name=name, count=count)


if __name__ == "__main__":
    app.run(debug=False)
