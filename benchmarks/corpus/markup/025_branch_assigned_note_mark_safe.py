# label: vulnerable
# family: markup
# sink-line: 16
# why: The moderator note from the POST form is built into an HTML string in one branch and marked safe further down.
from django.http import HttpRequest, HttpResponse
from django.utils.safestring import mark_safe


def moderation_banner(request: HttpRequest) -> HttpResponse:
    note = request.POST.get("note", "")
    if note:
        html = "<div class='banner'><em>Moderator:</em> " + note + "</div>"
    else:
        html = "<div class='banner'>No moderator note.</div>"
    status = request.POST.get("status", "open")
    banner = mark_safe(html)
    return HttpResponse(banner + f"<p>Status recorded: {status == 'open'}</p>")
