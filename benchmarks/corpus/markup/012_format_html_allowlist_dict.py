# label: safe
# family: markup
# sink-line: 20
# why: The requested level only selects one of several literal format strings from a LiteralString-typed dict; the count is an escaped argument.
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html
from typing_extensions import LiteralString

BADGES: dict[str, LiteralString] = {
    "info": "<span class='badge badge-info'>{} new</span>",
    "warning": "<span class='badge badge-warning'>{} pending</span>",
    "error": "<span class='badge badge-error'>{} failed</span>",
}


def badge(request: HttpRequest) -> HttpResponse:
    level = request.GET.get("level", "info")
    count = request.GET.get("count", "0")
    fmt = BADGES.get(level, BADGES["info"])
    return HttpResponse(format_html(fmt, count))
