# label: safe
# family: markup
# sink-line: 14
# why: format_html's format string is a join of literal cell templates; the order fields from the request are escaped arguments.
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.html import format_html


def order_row(request: HttpRequest) -> HttpResponse:
    order_id = request.GET.get("id", "")
    customer = request.GET.get("customer", "")
    total = request.GET.get("total", "0.00")
    row = format_html("".join(["<tr>", "<td>{}</td>", "<td>{}</td>", "<td class='num'>{}</td>", "</tr>"]), order_id, customer, total)
    return HttpResponse(row)


urlpatterns = [
    path("orders/row/", order_row, name="order-row"),
]
