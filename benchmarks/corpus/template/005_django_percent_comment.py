# label: vulnerable
# family: template
# sink-line: 14
# why: The posted comment body is spliced into the Django template source with the % operator, so template tags in the comment are parsed and executed.
from django.http import HttpRequest, HttpResponse
from django.template import Context, Template
from django.urls import path


def preview_comment(request: HttpRequest) -> HttpResponse:
    body = request.POST.get("body", "")
    author = request.user.get_username()
    source = "<div class='comment'><p>%s</p><small>{{ author }}</small></div>" % body
    html = Template(source).render(Context({"author": author}))
    return HttpResponse(html)


urlpatterns = [
    path("comments/preview/", preview_comment, name="preview-comment"),
]
