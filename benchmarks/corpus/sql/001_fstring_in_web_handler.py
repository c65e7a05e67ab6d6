# label: vulnerable
# family: sql
# sink-line: 16
# why: The 'name' query parameter is interpolated into the SQL text with an f-string, so a quote in it rewrites the WHERE clause.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def find_user(conn: sqlite3.Connection, request: Request) -> list[Any]:
    name = request.args.get("name", "")
    cur = conn.execute(f"SELECT id, email FROM users WHERE name = '{name}'")
    return cur.fetchall()


if __name__ == "__main__":
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE users (id INTEGER, name TEXT, email TEXT)")
    print(find_user(db, Request({"name": "alice"})))
