# label: safe
# family: sql
# sink-line: 16
# why: The user-supplied email is bound as a '?' parameter and never becomes part of the SQL text.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def lookup(conn: sqlite3.Connection, request: Request) -> dict[str, Any] | None:
    email = request.args["email"]
    row = conn.execute(
        "SELECT id, name, created_at FROM accounts WHERE email = ? AND active = 1",
        (email,),
    ).fetchone()
    if row is None:
        return None
    return {"id": row[0], "name": row[1], "created_at": row[2]}
