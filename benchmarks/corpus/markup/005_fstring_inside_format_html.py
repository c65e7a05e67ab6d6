# label: vulnerable
# family: markup
# sink-line: 13
# why: The 'next' URL from the query string is put into format_html's format string with an f-string, bypassing the escaping of arguments.
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.html import format_html


def continue_button(request: HttpRequest) -> HttpResponse:
    next_url = request.GET.get("next", "/")
    label = request.GET.get("label", "Continue")
    button = format_html(f"<a class='btn' href='{next_url}'>{{}}</a>", label)
    return HttpResponse(button)


urlpatterns = [
    path("flow/continue/", continue_button, name="continue-button"),
]
