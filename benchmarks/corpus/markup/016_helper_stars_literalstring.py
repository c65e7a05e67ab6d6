# label: safe
# family: markup
# sink-line: 17
# why: The star rating HTML comes from a helper annotated -> LiteralString that repeats literal entities, so only literal markup reaches mark_safe.
from django.http import HttpRequest, HttpResponse
from django.utils.safestring import mark_safe
from typing_extensions import LiteralString


def stars(rating: int) -> LiteralString:
    rating = min(max(rating, 0), 5)
    return "&#9733;" * rating + "&#9734;" * (5 - rating)


def review_stars(request: HttpRequest) -> HttpResponse:
    rating = int(request.GET.get("rating", "0"))
    html = mark_safe("<span class='stars'>" + stars(rating) + "</span>")
    return HttpResponse(html)
