# label: vulnerable
# family: template
# sink-line: 13
# why: The 'name' query parameter is interpolated into the template source with an f-string, so '{{ 7*7 }}' or a config lookup is evaluated by Jinja.
from flask import Flask, render_template_string, request

app = Flask(__name__)


@app.route("/hello")
def hello() -> str:
    name = request.args.get("name", "stranger")
    return render_template_string(f"<h1>Hello, {name}!</h1><p>Welcome back.</p>")


if __name__ == "__main__":
    app.run(debug=False)
