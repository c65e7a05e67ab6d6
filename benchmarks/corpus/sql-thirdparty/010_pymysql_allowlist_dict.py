# label: safe
# family: sql-thirdparty
# sink-line: 21
# why: The requested sort key only selects a literal column name from a LiteralString-typed dict; the category is a bound parameter.
from typing import Any

import pymysql
import pymysql.cursors
from typing_extensions import LiteralString

SORT_COLUMNS: dict[str, LiteralString] = {
    "price": "price",
    "newest": "created_at",
    "name": "name",
}


def list_products(conn: pymysql.Connection[pymysql.cursors.Cursor], category: str, sort: str) -> list[Any]:
    column = SORT_COLUMNS.get(sort, "name")
    with conn.cursor() as cur:
        cur.execute("SELECT id, name, price FROM products WHERE category = %s ORDER BY " + column, (category,))
        return list(cur.fetchall())


if __name__ == "__main__":
    db = pymysql.connect(host="localhost", user="shop", database="shop")
    print(list_products(db, "tools", "price"))
