# label: safe
# family: sql
# sink-line: 13
# why: The f-string only interpolates module-level literal constants, and the user id is bound as a parameter.
import sqlite3
from typing import Final

TABLE: Final = "users"
COLUMNS: Final = "id, name, email"


def get_user(conn: sqlite3.Connection, user_id: int) -> tuple[int, str, str] | None:
    return conn.execute(
        f"SELECT {COLUMNS} FROM {TABLE} WHERE id = ?", (user_id,)
    ).fetchone()


def count_users(conn: sqlite3.Connection) -> int:
    (n,) = conn.execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()
    return int(n)
