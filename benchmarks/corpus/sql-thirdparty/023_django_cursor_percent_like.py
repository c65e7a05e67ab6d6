# label: vulnerable
# family: sql-thirdparty
# sink-line: 13
# why: The search text from request.GET is %-formatted into a LIKE pattern inside the SQL string given to Django's raw cursor, so a quote escapes it.
from django.db import connection
from django.http import HttpRequest, JsonResponse


def search_authors(request: HttpRequest) -> JsonResponse:
    needle = request.GET.get("q", "")
    sql = "SELECT id, name FROM shop_author WHERE name LIKE '%%%s%%' ORDER BY name" % needle
    with connection.cursor() as cur:
        cur.execute(sql)
        rows = cur.fetchall()
    return JsonResponse({"authors": [list(r) for r in rows]})
