# label: safe
# family: sql-thirdparty
# sink-line: 15
# why: The page size and page number are converted with int() before being formatted into LIMIT/OFFSET, so only digits reach the SQL (a checker cannot prove this).
from typing import Any

import MySQLdb
import MySQLdb.cursors


def page_of_posts(conn: MySQLdb.Connection, args: dict[str, str]) -> list[Any]:
    size = min(int(args.get("size", "20")), 100)
    page = max(int(args.get("page", "0")), 0)
    cur: MySQLdb.cursors.Cursor = conn.cursor()
    cur.execute(f"SELECT id, title FROM posts ORDER BY id DESC LIMIT {size} OFFSET {page * size}")
    return list(cur.fetchall())


if __name__ == "__main__":
    db = MySQLdb.connect(host="localhost", user="blog", db="blog")
    print(page_of_posts(db, {"size": "10", "page": "2"}))
