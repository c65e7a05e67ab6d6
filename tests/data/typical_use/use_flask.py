from flask import Flask, render_template_string, request

app = Flask(__name__)


@app.route("/")
def index() -> str:
    user = request.args.get("u", "")
    page = render_template_string("<p>{{ u }}</p>", u=user)
    app.logger.info("rendered %s", len(page))
    app.routex("/x")  # error
    return render_template_string("<p>" + user + "</p>")  # sink
