# label: vulnerable
# family: sql
# sink-line: 20
# why: The limit string from the query string is used without int() conversion, so 'x UNION SELECT ...' is appended to the query.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


DEFAULT_LIMIT = "50"


def recent_activity(conn: sqlite3.Connection, request: Request) -> list[Any]:
    limit = request.args.get("limit") or DEFAULT_LIMIT
    sql = "SELECT ts, actor, verb FROM activity ORDER BY ts DESC LIMIT %s" % limit
    return conn.execute(sql).fetchall()
