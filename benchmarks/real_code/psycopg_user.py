"""A module that uses psycopg 3 right and wrong; each `# E` line passes a non-literal string."""

from __future__ import annotations

from typing import Final, LiteralString

import psycopg
from psycopg import sql
from psycopg.rows import dict_row

TABLE: Final = "users"
COLUMNS = ("id", "name", "email")


def select_all(table: LiteralString) -> LiteralString:
    return f"SELECT * FROM {table}"


class Queries:
    COUNT = "SELECT count(*) FROM users"

    @property
    def recent(self) -> LiteralString:
        return "SELECT * FROM users ORDER BY created DESC LIMIT 10"


def right(conn: psycopg.Connection[tuple[object, ...]], column: str, name: str) -> None:
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM users WHERE name = %s", (name,))
        cur.execute(f"SELECT {', '.join(COLUMNS)} FROM {TABLE}")
        cur.execute(sql.SQL("SELECT {} FROM users").format(sql.Identifier(column)))
        cur.execute(
            sql.SQL("SELECT {} FROM {}").format(
                sql.SQL(", ").join(sql.Identifier(c) for c in COLUMNS), sql.Identifier(TABLE)
            )
        )
        cur.execute(select_all("users"))
        cur.execute(b"SELECT 1")
        cur.execute(Queries.COUNT)
        cur.execute(Queries().recent, prepare=True)
        cur.executemany("INSERT INTO users (name) VALUES (%s)", [(name,)])
        if column in ("id", "name"):
            cur.execute(f"SELECT {column} FROM users")
    with conn.cursor(row_factory=dict_row) as rows:
        rows.execute("SELECT * FROM users")
    conn.execute("VACUUM")


def wrong(conn: psycopg.Connection[tuple[object, ...]], column: str, name: str) -> None:
    with conn.cursor() as cur:
        cur.execute(f"SELECT * FROM users WHERE name = '{name}'")  # E
        cur.execute("SELECT " + column + " FROM users")  # E
        cur.execute(sql.SQL(f"SELECT {column} FROM users"))  # E
        cur.executemany(f"INSERT INTO {column} VALUES (%s)", [(name,)])  # E
    conn.execute("SELECT * FROM users WHERE name = '%s'" % name)  # E
