# label: vulnerable
# family: sql
# sink-line: 20
# why: Doubling single quotes does not help in an unquoted numeric context, so '0 OR 1=1' still changes the query.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def sql_escape(value: str) -> str:
    return value.replace("'", "''")


def get_invoice(conn: sqlite3.Connection, request: Request, tenant: int) -> Any:
    invoice_id = sql_escape(request.args["invoice"])
    return conn.execute(
        f"SELECT * FROM invoices WHERE tenant_id = ? AND id = {invoice_id}", (tenant,)
    ).fetchone()
