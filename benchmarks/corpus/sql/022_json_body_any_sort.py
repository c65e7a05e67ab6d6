# label: vulnerable
# family: sql
# sink-line: 20
# why: json.loads returns Any, and the client-controlled 'sort' field is interpolated into the ORDER BY clause.
import json
import sqlite3
from typing import Any


class Request:
    def __init__(self, body: bytes) -> None:
        self.body = body


def search_api(conn: sqlite3.Connection, request: Request) -> str:
    payload = json.loads(request.body)
    sort_field = payload.get("sort", "id")
    page = int(payload.get("page", 0))
    query = f"SELECT id, title FROM articles ORDER BY {sort_field} LIMIT 20 OFFSET ?"
    rows: list[Any] = conn.execute(query, (page * 20,)).fetchall()
    return json.dumps([{"id": r[0], "title": r[1]} for r in rows])
