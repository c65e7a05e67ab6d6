"""The backport in use: a query helper that only accepts literal SQL, on any Python 3.8+."""

import sqlite3

from typing_literalstring import LiteralString


def fetch_all(conn: sqlite3.Connection, sql: LiteralString, *params: object) -> list:
    return conn.execute(sql, params).fetchall()


conn = sqlite3.connect(":memory:")
conn.execute("CREATE TABLE users (id INTEGER, name TEXT)")
conn.execute("INSERT INTO users VALUES (1, 'ada'), (2, 'grace')")
user_id = 2  # imagine this came from a request
print(fetch_all(conn, "SELECT name FROM users WHERE id = ?", user_id))
print("typing_literalstring.LiteralString is", repr(LiteralString))
