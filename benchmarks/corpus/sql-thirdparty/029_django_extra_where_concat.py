# label: vulnerable
# family: sql-thirdparty
# sink-line: 19
# why: The maximum price from the query string is concatenated into an extra(where=...) clause, so '0 OR 1=1' or a subquery is executed.
from django.db import models
from django.http import HttpRequest, JsonResponse


class Book(models.Model):
    title = models.CharField(max_length=100)
    price = models.DecimalField(max_digits=8, decimal_places=2)

    class Meta:
        app_label = "shop"


def cheap_books(request: HttpRequest) -> JsonResponse:
    max_price = request.GET.get("max_price", "10")
    books = Book.objects.all().extra(where=["price <= " + max_price])
    return JsonResponse({"titles": [b.title for b in books]})
