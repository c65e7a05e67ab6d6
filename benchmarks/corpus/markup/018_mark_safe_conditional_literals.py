# label: safe
# family: markup
# sink-line: 14
# why: The status icon is chosen by if/else between two literal HTML strings before mark_safe; no request data enters the markup.
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape
from django.utils.safestring import mark_safe


def account_status(request: HttpRequest) -> HttpResponse:
    username = request.GET.get("user", "")
    active = request.GET.get("active") == "yes"
    icon = "<span class='ok'>&#10003;</span>" if active else "<span class='off'>&#10007;</span>"
    badge = mark_safe(icon)
    return HttpResponse(escape(username) + " " + badge)
