# label: safe
# family: sql
# sink-line: 20
# why: String methods applied to literal constants keep the query literal, and the user's value is bound with '?'.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


BASE = "select id, name from employees where department = ?"


def by_department(conn: sqlite3.Connection, request: Request) -> list[Any]:
    query = BASE.upper().strip() + " ORDER BY NAME"
    department = request.args.get("dept", "engineering")
    return conn.execute(query, (department,)).fetchall()
