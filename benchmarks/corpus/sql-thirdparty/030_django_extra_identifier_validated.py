# label: safe
# family: sql-thirdparty
# sink-line: 22
# why: The column name must pass str.isidentifier(), so it cannot carry quotes, spaces or operators into the extra() clause (a checker cannot prove this).
from django.db import models
from django.http import HttpRequest, HttpResponseBadRequest, JsonResponse


class Book(models.Model):
    title = models.CharField(max_length=100)
    isbn = models.CharField(max_length=20, null=True)
    subtitle = models.CharField(max_length=200, null=True)

    class Meta:
        app_label = "shop"


def books_with_field(request: HttpRequest) -> JsonResponse | HttpResponseBadRequest:
    field = request.GET.get("field", "isbn")
    if not field.isidentifier():
        return HttpResponseBadRequest("invalid field name")
    books = Book.objects.all().extra(where=[f"{field} IS NOT NULL"])
    return JsonResponse({"titles": [b.title for b in books]})
