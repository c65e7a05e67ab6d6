# label: safe
# family: sql
# sink-line: 22
# why: The helper is annotated to return LiteralString and only returns literal SQL fragments chosen by a boolean.
from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import LiteralString


def visibility_filter(include_private: bool) -> LiteralString:
    if include_private:
        return "1 = 1"
    return "visibility = 'public'"


def list_repos(conn: sqlite3.Connection, owner: str, include_private: bool) -> list[tuple[str]]:
    sql = "SELECT name FROM repos WHERE owner = ? AND " + visibility_filter(include_private)
    return conn.execute(sql, (owner,)).fetchall()
