# label: safe
# family: markup
# sink-line: 15
# why: Only the literal '<br>' separator is wrapped in Markup; Markup.join escapes each line of the posted address.
from flask import Flask, request
from markupsafe import Markup

app = Flask(__name__)


@app.post("/address/preview")
def address_preview() -> str:
    address = request.form.get("address", "")
    lines = [line.strip() for line in address.splitlines() if line.strip()]
    separator = Markup("<br>")
    return str(Markup("<address>") + separator.join(lines) + Markup("</address>"))


if __name__ == "__main__":
    app.run(debug=False)
