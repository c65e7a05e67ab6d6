# label: vulnerable
# family: markup
# sink-line: 14
# why: The posted biography is concatenated between literal tags and passed to mark_safe, so any HTML or script in it is trusted.
from django.http import HttpRequest, HttpResponse
from django.template import Context, Template
from django.utils.safestring import mark_safe

PAGE = Template("<section class='bio'>{{ bio }}</section>")


def preview_bio(request: HttpRequest) -> HttpResponse:
    bio = request.POST.get("bio", "")
    bio_html = mark_safe("<p>" + bio + "</p>")
    return HttpResponse(PAGE.render(Context({"bio": bio_html})))
