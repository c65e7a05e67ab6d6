# label: vulnerable
# family: markup
# sink-line: 14
# why: The field label from the query string is %-formatted into format_html's format string, so only the value argument gets escaped.
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.html import format_html


def field_row(request: HttpRequest) -> HttpResponse:
    label = request.GET.get("label", "Name")
    value = request.GET.get("value", "")
    fmt = "<tr><th>%s</th><td>{}</td></tr>" % label
    row = format_html(fmt, value)
    return HttpResponse(row)


urlpatterns = [
    path("fields/row/", field_row, name="field-row"),
]
