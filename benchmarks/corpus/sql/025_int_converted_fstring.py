# label: safe
# family: sql
# sink-line: 21
# why: The page number is converted with int() before interpolation, so only digits can appear in the SQL text.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


PAGE_SIZE = 25


def page_of_comments(conn: sqlite3.Connection, request: Request) -> list[Any]:
    page = int(request.args.get("page", "0"))
    offset = max(page, 0) * PAGE_SIZE
    sql = f"SELECT id, body FROM comments ORDER BY id LIMIT {PAGE_SIZE} OFFSET {offset}"
    return conn.execute(sql).fetchall()
