# label: vulnerable
# family: sql
# sink-line: 20
# why: The search term from the request is inserted with str.format into a LIKE pattern inside the SQL text.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


QUERY_TEMPLATE = "SELECT sku, title FROM products WHERE title LIKE '%{term}%' ORDER BY title"


def search_products(conn: sqlite3.Connection, request: Request) -> list[dict[str, Any]]:
    term = request.args.get("q", "").strip()
    query = QUERY_TEMPLATE.format(term=term)
    rows = conn.execute(query).fetchall()
    return [{"sku": sku, "title": title} for sku, title in rows]
