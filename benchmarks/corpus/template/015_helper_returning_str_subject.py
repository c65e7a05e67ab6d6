# label: vulnerable
# family: template
# sink-line: 18
# why: The product name from the order form is concatenated by a str-returning helper into the subject template, which is then compiled by jinja2.Template.
import jinja2
from flask import Flask, request

app = Flask(__name__)


def subject_source(product: str) -> str:
    return "Your order of " + product + " ships on {{ ship_date }}"


@app.post("/orders/preview-subject")
def preview_subject() -> str:
    product = request.form.get("product", "")
    template = jinja2.Template(subject_source(product))
    return template.render(ship_date="Monday")


if __name__ == "__main__":
    app.run(debug=False)
