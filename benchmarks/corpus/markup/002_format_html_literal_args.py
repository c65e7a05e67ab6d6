# label: safe
# family: markup
# sink-line: 13
# why: format_html gets a literal format string and the user's name and URL as arguments, which it escapes before inserting.
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.html import format_html


def author_link(request: HttpRequest) -> HttpResponse:
    name = request.GET.get("name", "anonymous")
    homepage = request.GET.get("homepage", "#")
    link = format_html("<a class='author' href='{}'>{}</a>", homepage, name)
    return HttpResponse(link)


urlpatterns = [
    path("authors/link/", author_link, name="author-link"),
]
