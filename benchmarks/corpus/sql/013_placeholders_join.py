# label: safe
# family: sql
# sink-line: 20
# why: The IN-list is built from '?' literals joined together and the ids are passed as parameters.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, list[str]]) -> None:
        self.args = args


def fetch_many(conn: sqlite3.Connection, request: Request) -> list[Any]:
    ids = request.args.get("id", [])
    if not ids:
        return []
    placeholders = ", ".join("?" for _ in ids)
    query = f"SELECT id, title FROM documents WHERE id IN ({placeholders})"
    return conn.execute(query, ids).fetchall()
