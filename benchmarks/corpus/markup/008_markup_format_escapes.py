# label: safe
# family: markup
# sink-line: 15
# why: Markup.format on a literal Markup escapes both the user id and display name taken from the request.
from flask import Flask, request
from markupsafe import Markup

app = Flask(__name__)


@app.route("/mention")
def mention() -> str:
    user_id = request.args.get("id", "0")
    display = request.args.get("display", "someone")
    link = Markup("<a href='/users/{}' class='mention'>@{}</a>").format(user_id, display)
    return str(link)


if __name__ == "__main__":
    app.run(debug=False)
