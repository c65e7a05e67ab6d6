# label: vulnerable
# family: sql-thirdparty
# sink-line: 18
# why: The 'title' query parameter is interpolated into the raw() SQL with an f-string, so a quote lets the visitor append a UNION SELECT.
from django.db import models
from django.http import HttpRequest, JsonResponse


class Book(models.Model):
    title = models.CharField(max_length=100)

    class Meta:
        app_label = "shop"


def books_by_title(request: HttpRequest) -> JsonResponse:
    title = request.GET.get("title", "")
    books = Book.objects.raw(f"SELECT id, title FROM shop_book WHERE title = '{title}'")
    return JsonResponse({"titles": [b.title for b in books]})
