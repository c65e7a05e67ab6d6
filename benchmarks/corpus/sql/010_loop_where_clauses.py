# label: vulnerable
# family: sql
# sink-line: 26
# why: Filter values from the query string are embedded into the WHERE clause while looping over the filters.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


ALLOWED_FILTERS = ("status", "region", "plan")


def filter_customers(conn: sqlite3.Connection, request: Request) -> list[Any]:
    clauses: list[str] = []
    for field in ALLOWED_FILTERS:
        value = request.args.get(field)
        if value:
            clauses.append(f"{field} = '{value}'")
    sql = "SELECT id, name FROM customers"
    if clauses:
        sql += " WHERE " + " AND ".join(clauses)
    return conn.execute(sql).fetchall()
