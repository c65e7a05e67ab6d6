# label: safe
# family: markup
# sink-line: 14
# why: The literal Markup('<b>%s</b>') is %-formatted with the city name, and Markup's % operator escapes the value.
from flask import Flask, request
from markupsafe import Markup

app = Flask(__name__)


@app.route("/weather")
def weather() -> str:
    city = request.args.get("city", "Berlin")
    heading = Markup("<h2>Weather for <b>%s</b></h2>") % city
    return str(heading + Markup("<p>Sunny, 21&deg;C</p>"))


if __name__ == "__main__":
    app.run(debug=False)
