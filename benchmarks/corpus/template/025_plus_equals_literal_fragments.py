# label: safe
# family: template
# sink-line: 17
# why: The template source is grown with += using only literal fragments selected by booleans; prices and names are render context.
from jinja2 import Environment

env = Environment(autoescape=True)


def product_card(name: str, price: str, show_price: bool, show_stock: bool, stock: int) -> str:
    source = "<div class='product'><h4>{{ name }}</h4>"
    if show_price:
        source += "<p class='price'>{{ price }}</p>"
    if show_stock:
        source += "<p class='stock'>{{ stock }} left</p>"
    source += "</div>"
    template = env.from_string(source)
    return template.render(name=name, price=price, stock=stock)


if __name__ == "__main__":
    print(product_card("<b>Kettle</b>", "19.99", True, False, 0))
