# label: safe
# family: sql
# sink-line: 28
# why: The WHERE clause is assembled from literal fragments in a loop while every user value goes into the parameter list.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def search_listings(conn: sqlite3.Connection, request: Request) -> list[Any]:
    sql = "SELECT id, title, price FROM listings WHERE 1 = 1"
    params: list[Any] = []
    for key, value in request.args.items():
        if key == "city":
            sql += " AND city = ?"
            params.append(value)
        elif key == "max_price":
            sql += " AND price <= ?"
            params.append(float(value))
        elif key == "bedrooms":
            sql += " AND bedrooms >= ?"
            params.append(int(value))
    sql += " ORDER BY price"
    return conn.execute(sql, params).fetchall()
