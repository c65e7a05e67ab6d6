# label: safe
# family: sql
# sink-line: 26
# why: The requested column is only used as a key into a dict of literal column names, so only those literals reach the SQL text.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


SORT_COLUMNS = {
    "name": "name",
    "email": "email",
    "joined": "created_at",
}


def list_members(conn: sqlite3.Connection, request: Request) -> list[Any]:
    requested = request.args.get("sort", "name")
    if requested not in ("name", "email", "joined"):
        raise ValueError(f"unsupported sort column: {requested}")
    column = SORT_COLUMNS[requested]
    return conn.execute(f"SELECT id, name, email FROM members ORDER BY {column}").fetchall()
