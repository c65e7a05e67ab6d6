# label: vulnerable
# family: template
# sink-line: 14
# why: Each posted 'line' field is joined into the template source, so any line containing Jinja syntax is executed by render_template_string.
from flask import Flask, render_template_string, request

app = Flask(__name__)


@app.post("/signature/preview")
def preview_signature() -> str:
    lines = request.form.getlist("line")
    source = "<br>".join(lines) + "<hr><small>{{ company }}</small>"
    return render_template_string(source, company="Acme Corp")


if __name__ == "__main__":
    app.run(debug=False)
