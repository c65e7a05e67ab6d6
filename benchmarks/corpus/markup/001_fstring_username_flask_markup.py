# label: vulnerable
# family: markup
# sink-line: 14
# why: The 'user' query parameter is interpolated into an f-string that is wrapped in Markup, so '<script>' in it is emitted unescaped.
from flask import Flask, render_template_string, request
from markupsafe import Markup

app = Flask(__name__)


@app.route("/profile")
def profile() -> str:
    username = request.args.get("user", "guest")
    greeting = Markup(f"<span class='user'>Signed in as <b>{username}</b></span>")
    return render_template_string("<nav>{{ greeting }}</nav>", greeting=greeting)


if __name__ == "__main__":
    app.run(debug=False)
