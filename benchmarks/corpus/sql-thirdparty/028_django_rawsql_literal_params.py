# label: safe
# family: sql-thirdparty
# sink-line: 19
# why: The RawSQL subquery is a literal and the minimum rating from the request is passed in its params list.
from django.db import models
from django.db.models.expressions import RawSQL
from django.http import HttpRequest, JsonResponse


class Book(models.Model):
    title = models.CharField(max_length=100)

    class Meta:
        app_label = "shop"


def well_reviewed(request: HttpRequest) -> JsonResponse:
    min_rating = request.GET.get("min_rating", "4")
    good_reviews = RawSQL("SELECT COUNT(*) FROM shop_review WHERE shop_review.book_id = shop_book.id AND rating >= %s", (min_rating,))
    books = Book.objects.annotate(good_reviews=good_reviews).filter(good_reviews__gt=0)
    return JsonResponse({"titles": [b.title for b in books]})
