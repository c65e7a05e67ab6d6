# label: vulnerable
# family: sql
# sink-line: 26
# why: The report definitions dict stores a query built from the request's date string, which is later executed verbatim.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def build_reports(request: Request) -> dict[str, str]:
    since = request.args.get("since", "2024-01-01")
    return {
        "signups": f"SELECT COUNT(*) FROM users WHERE created_at >= '{since}'",
        "orders": f"SELECT COUNT(*) FROM orders WHERE placed_at >= '{since}'",
    }


def dashboard(conn: sqlite3.Connection, request: Request) -> dict[str, Any]:
    reports = build_reports(request)
    result: dict[str, Any] = {}
    for key, query in reports.items():
        result[key] = conn.execute(query).fetchone()[0]
    return result
