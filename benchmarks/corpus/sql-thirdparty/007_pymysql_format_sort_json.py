# label: vulnerable
# family: sql-thirdparty
# sink-line: 18
# why: The sort column from the JSON request body is inserted with str.format into the ORDER BY clause, allowing arbitrary SQL after it.
import json
from typing import Any

import pymysql
import pymysql.cursors


def search_books(conn: pymysql.Connection[pymysql.cursors.Cursor], raw_body: bytes) -> list[Any]:
    payload = json.loads(raw_body)
    sort: str = str(payload.get("sort", "title"))
    author: str = str(payload.get("author", ""))
    query = "SELECT id, title, year FROM books WHERE author = %s ORDER BY {}".format(sort)
    with conn.cursor() as cur:
        cur.execute(query, (author,))
        return list(cur.fetchall())


if __name__ == "__main__":
    db = pymysql.connect(host="localhost", user="lib", database="library")
    print(search_books(db, b'{"author": "Le Guin", "sort": "year"}'))
