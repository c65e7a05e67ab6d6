# label: vulnerable
# family: markup
# sink-line: 13
# why: The ANALYTICS_SNIPPET environment variable is marked safe and injected into every page, so whoever controls it injects arbitrary script.
import os

from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe


def analytics(request: HttpRequest) -> dict[str, SafeString]:
    snippet = os.environ.get("ANALYTICS_SNIPPET", "")
    return {"analytics_snippet": mark_safe(snippet)}


def settings_fragment() -> dict[str, list[str]]:
    return {"context_processors": ["shop.context.analytics"]}
