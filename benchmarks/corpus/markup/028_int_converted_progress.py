# label: safe
# family: markup
# sink-line: 13
# why: The percentage is converted with int() and clamped, so only digits reach the mark_safe HTML (a checker cannot prove this).
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.safestring import mark_safe


def upload_progress(request: HttpRequest) -> HttpResponse:
    percent = int(request.GET.get("percent", "0"))
    percent = min(max(percent, 0), 100)
    bar = mark_safe(f"<progress value='{percent}' max='100'>{percent}%</progress>")
    return HttpResponse(bar)


urlpatterns = [
    path("uploads/progress/", upload_progress, name="upload-progress"),
]
