# label: safe
# family: sql
# sink-line: 17
# why: The LIKE pattern is built in Python but passed as a bound parameter, so the SQL text stays literal.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def autocomplete(conn: sqlite3.Connection, request: Request) -> list[str]:
    prefix = request.args.get("prefix", "")
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows: list[Any] = conn.execute(
        "SELECT name FROM cities WHERE name LIKE ? ESCAPE '\\' ORDER BY population DESC LIMIT 10",
        (f"{escaped}%",),
    ).fetchall()
    return [r[0] for r in rows]
