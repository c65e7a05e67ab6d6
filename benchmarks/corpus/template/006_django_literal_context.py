# label: safe
# family: template
# sink-line: 13
# why: The Django template source is a literal; the posted comment is only supplied through Context and is autoescaped on output.
from django.http import HttpRequest, HttpResponse
from django.template import Context, Template
from django.urls import path


def preview_comment(request: HttpRequest) -> HttpResponse:
    body = request.POST.get("body", "")
    author = request.user.get_username()
    template = Template("<div class='comment'><p>{{ body }}</p><small>{{ author }}</small></div>")
    html = template.render(Context({"body": body, "author": author}))
    return HttpResponse(html)


urlpatterns = [
    path("comments/preview/", preview_comment, name="preview-comment"),
]
