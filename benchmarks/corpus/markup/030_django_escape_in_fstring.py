# label: safe
# family: markup
# sink-line: 13
# why: The uploaded file name is passed through django.utils.html.escape before interpolation, so the mark_safe string is safe (a checker cannot prove this).
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.html import escape
from django.utils.safestring import mark_safe


def upload_done(request: HttpRequest) -> HttpResponse:
    filename = request.POST.get("filename", "file")
    message = mark_safe(f"<p class='success'>Uploaded <code>{escape(filename)}</code> successfully.</p>")
    return HttpResponse(message)


urlpatterns = [
    path("uploads/done/", upload_done, name="upload-done"),
]
