# label: vulnerable
# family: template
# sink-line: 15
# why: An optional 'note' query parameter is appended to the template source, so Django template tags in it are parsed and rendered.
from django.http import HttpRequest, HttpResponse
from django.template import Context, Template


def login_banner(request: HttpRequest) -> HttpResponse:
    source = "<p>Signed in from {{ ip }}</p>"
    note = request.GET.get("note", "")
    if note:
        source += "<p class='note'>" + note + "</p>"
    ip = request.META.get("REMOTE_ADDR", "unknown")
    html = Template(source).render(Context({"ip": ip}))
    return HttpResponse(html)
