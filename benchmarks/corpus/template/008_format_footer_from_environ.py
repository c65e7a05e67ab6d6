# label: vulnerable
# family: template
# sink-line: 13
# why: The SITE_FOOTER environment variable is inserted into the template source with str.format, so whoever sets it can inject Jinja expressions.
import os

import jinja2


def build_page_template() -> jinja2.Template:
    footer_text = os.environ.get("SITE_FOOTER", "Powered by Acme")
    source = "<main>{{ content }}</main><footer>{}</footer>".format(footer_text)
    return jinja2.Template(source)


def render_page(content: str) -> str:
    return build_page_template().render(content=content)


if __name__ == "__main__":
    print(render_page("Quarterly numbers are in."))
