# label: vulnerable
# family: sql
# sink-line: 18
# why: typing.cast only changes the static type; the request value is still attacker-controlled when formatted into the query.
import sqlite3
from typing import Any, cast


class Request:
    def __init__(self, args: dict[str, Any]) -> None:
        self.args = args


def audit_trail(conn: sqlite3.Connection, request: Request) -> list[Any]:
    actor = cast(str, request.args.get("actor"))
    query = "SELECT at, action FROM audit_log WHERE actor = '{}' ORDER BY at".format(actor)
    cur = conn.cursor()
    cur.execute(query)
    return cur.fetchall()
