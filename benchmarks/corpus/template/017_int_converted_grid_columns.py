# label: safe
# family: template
# sink-line: 15
# why: The column count is converted with int() and formatted with %d, so only digits can reach the template source.
from flask import Flask, render_template_string, request

app = Flask(__name__)


@app.route("/gallery")
def gallery() -> str:
    columns = int(request.args.get("columns", "3"))
    columns = min(max(columns, 1), 6)
    source = "<div class='grid grid-%d'>{%% for img in images %%}<img src='{{ img }}'>{%% endfor %%}</div>" % columns
    return render_template_string(source, images=["/a.png", "/b.png"])


if __name__ == "__main__":
    app.run(debug=False)
