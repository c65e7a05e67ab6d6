# label: safe
# family: sql
# sink-line: 16
# why: The table name is a Final class-level literal, and the key comes in as a bound parameter.
import sqlite3
from typing import Final


class SettingsRepo:
    TABLE: Final = "settings"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def get(self, key: str) -> str | None:
        row = self.conn.execute(
            "SELECT value FROM " + self.TABLE + " WHERE key = ?", (key,)
        ).fetchone()
        return None if row is None else str(row[0])

    def set(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO " + self.TABLE + " (key, value) VALUES (?, ?)", (key, value)
        )
