# label: safe
# family: sql-thirdparty
# sink-line: 18
# why: Model.objects.raw gets a literal query with a %s placeholder and the title from the request is passed in the params list.
from django.db import models
from django.http import HttpRequest, JsonResponse


class Book(models.Model):
    title = models.CharField(max_length=100)

    class Meta:
        app_label = "shop"


def books_by_title(request: HttpRequest) -> JsonResponse:
    title = request.GET.get("title", "")
    books = Book.objects.raw("SELECT id, title FROM shop_book WHERE title = %s", [title])
    return JsonResponse({"ids": [b.pk for b in books]})
