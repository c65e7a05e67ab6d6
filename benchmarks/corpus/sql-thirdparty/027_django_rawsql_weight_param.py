# label: vulnerable
# family: sql-thirdparty
# sink-line: 20
# why: The ranking weight from the query string is concatenated into a RawSQL annotation, so arbitrary SQL can be placed in the SELECT list.
from django.db import models
from django.db.models.expressions import RawSQL
from django.http import HttpRequest, JsonResponse


class Book(models.Model):
    title = models.CharField(max_length=100)
    sales = models.IntegerField(default=0)

    class Meta:
        app_label = "shop"


def ranked_books(request: HttpRequest) -> JsonResponse:
    weight = request.GET.get("weight", "1")
    score = RawSQL("sales * " + weight, [])
    books = Book.objects.annotate(score=score).order_by("-score")[:20]
    return JsonResponse({"titles": [b.title for b in books]})
