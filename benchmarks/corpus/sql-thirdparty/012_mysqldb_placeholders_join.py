# label: safe
# family: sql-thirdparty
# sink-line: 16
# why: The IN-list is a join of literal '%s' placeholders, one per id, and the ids themselves are passed as parameters.
from typing import Any

import MySQLdb
import MySQLdb.cursors


def fetch_invoices(conn: MySQLdb.Connection, invoice_ids: list[int]) -> list[Any]:
    if not invoice_ids:
        return []
    placeholders = ", ".join("%s" for _ in invoice_ids)
    cur: MySQLdb.cursors.Cursor = conn.cursor()
    cur.execute(f"SELECT id, customer, total FROM invoices WHERE id IN ({placeholders})", invoice_ids)
    return list(cur.fetchall())


if __name__ == "__main__":
    db = MySQLdb.connect(host="localhost", user="billing", db="billing")
    print(fetch_invoices(db, [3, 5, 8]))
