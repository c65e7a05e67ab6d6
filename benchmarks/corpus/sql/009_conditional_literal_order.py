# label: safe
# family: sql
# sink-line: 18
# why: The sort direction is chosen between two literal strings, so the user flag only selects between fixed SQL fragments.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def list_posts(conn: sqlite3.Connection, request: Request) -> list[Any]:
    ascending = request.args.get("order") == "asc"
    direction = "ASC" if ascending else "DESC"
    query = "SELECT id, title, published_at FROM posts ORDER BY published_at " + direction
    return conn.execute(query).fetchall()
