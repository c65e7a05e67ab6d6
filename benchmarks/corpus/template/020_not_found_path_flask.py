# label: vulnerable
# family: template
# sink-line: 16
# why: The requested URL path is %-formatted into the 404 page template, the classic Flask SSTI where '/{{ config }}' dumps the app config.
from flask import Flask, render_template_string, request

app = Flask(__name__)


@app.errorhandler(404)
def page_not_found(error: Exception) -> tuple[str, int]:
    template = """
    <h1>Page not found</h1>
    <p>The page %s does not exist on {{ site }}.</p>
    """ % request.path
    return render_template_string(template, site="example.org"), 404


if __name__ == "__main__":
    app.run(debug=False)
