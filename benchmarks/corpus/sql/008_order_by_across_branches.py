# label: vulnerable
# family: sql
# sink-line: 24
# why: One branch copies the raw 'sort' parameter into the ORDER BY clause, so arbitrary SQL expressions can be injected there.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def list_orders(conn: sqlite3.Connection, request: Request) -> list[Any]:
    sort = request.args.get("sort", "")
    if sort == "":
        order_clause = "created_at DESC"
    elif sort == "oldest":
        order_clause = "created_at ASC"
    else:
        # power users may sort by any column
        order_clause = sort
    sql = "SELECT id, total, status FROM orders ORDER BY " + order_clause
    return conn.execute(sql).fetchall()
