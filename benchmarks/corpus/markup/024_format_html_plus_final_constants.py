# label: safe
# family: markup
# sink-line: 16
# why: The format string is Final literal constants joined with + to a literal cell; the posted quantity is an escaped argument.
from typing import Final

from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html

ROW_START: Final = "<tr class='line-item'>"
ROW_END: Final = "</tr>"


def quantity_row(request: HttpRequest) -> HttpResponse:
    quantity = request.POST.get("quantity", "1")
    html = format_html(ROW_START + "<td>Quantity</td><td>{}</td>" + ROW_END, quantity)
    return HttpResponse(html)
