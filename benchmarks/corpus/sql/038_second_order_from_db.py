# label: vulnerable
# family: sql
# sink-line: 18
# why: A saved-search expression written earlier by a user is read back from the database and spliced into a new query.
import sqlite3
from typing import Any


def run_saved_search(conn: sqlite3.Connection, search_id: int) -> list[Any]:
    row = conn.execute(
        "SELECT owner_id, expression FROM saved_searches WHERE id = ?", (search_id,)
    ).fetchone()
    if row is None:
        return []
    owner_id, expression = row
    expression_text: str = str(expression)
    sql = "SELECT id, subject FROM messages WHERE owner_id = ? AND (" + expression_text + ")"
    return conn.execute(sql, (owner_id,)).fetchall()


def worker(conn: sqlite3.Connection, pending: list[int]) -> None:
    for search_id in pending:
        print(search_id, len(run_saved_search(conn, search_id)))
