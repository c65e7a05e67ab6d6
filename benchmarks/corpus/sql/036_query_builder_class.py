# label: vulnerable
# family: sql
# sink-line: 32
# why: The builder stores caller-supplied filter values in its clause list and renders them into the SQL string that gets executed.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


class Select:
    def __init__(self, table: str) -> None:
        self.table = table
        self.conditions: list[str] = []

    def where(self, column: str, value: str) -> "Select":
        self.conditions.append(f"{column} = '{value}'")
        return self

    def render(self) -> str:
        sql = f"SELECT * FROM {self.table}"
        if self.conditions:
            sql += " WHERE " + " AND ".join(self.conditions)
        return sql


def vehicles(conn: sqlite3.Connection, request: Request) -> list[Any]:
    q = Select("vehicles").where("make", request.args.get("make", "any"))
    return conn.execute(q.render()).fetchall()
