"""sqlite3: the SQL text of every execute method must be a literal string.

Values travel as parameters (`?` or `:name` placeholders); PEP 675's composition rules let a
query be assembled from literal pieces.
"""

import sqlite3
import sqlite3.dbapi2
from typing import List

from typing_extensions import LiteralString, assert_type


def accepted(
    conn: sqlite3.Connection,
    cur: sqlite3.Cursor,
    user_id: str,
    table: LiteralString,
    columns: List[LiteralString],
    ids: List[int],
    flag: bool,
) -> None:
    conn.execute("SELECT * FROM data WHERE user_id = ?", (user_id,))
    conn.execute("SELECT * FROM data WHERE user_id = :id", {"id": user_id})
    query = "SELECT * FROM data WHERE user_id = ?"
    if flag:
        query += " LIMIT 1"
    conn.execute(query, (user_id,))
    conn.execute(f"SELECT * FROM {table} WHERE user_id = ?", (user_id,))
    conn.execute("SELECT " + ", ".join(columns) + " FROM data")
    conn.execute("SELECT * FROM data WHERE id IN (" + ", ".join("?" for _ in ids) + ")", ids)
    conn.execute("SELECT * FROM data ORDER BY " + ("name" if flag else "id"))
    conn.execute("SELECT * FROM %s" % table)
    conn.execute("SELECT * FROM {}".format(table))
    conn.execute(table.upper())
    conn.executemany("INSERT INTO data VALUES (?, ?)", [(1, user_id)])
    conn.executescript("CREATE TABLE a (x); CREATE TABLE b (y);")
    conn("SELECT 1")
    cur.execute("SELECT 1")
    cur.executemany("INSERT INTO data VALUES (?)", [(user_id,)])
    cur.executescript("VACUUM;")
    sqlite3.dbapi2.connect(":memory:").execute("SELECT 1")


def rejected(
    conn: sqlite3.Connection,
    cur: sqlite3.Cursor,
    user_id: str,
    user_sql: str,
    table: LiteralString,
) -> None:
    conn.execute(f"SELECT * FROM data WHERE user_id = {user_id}")  # E
    conn.execute("SELECT * FROM data WHERE user_id = " + user_id)  # E
    conn.execute("SELECT * FROM data WHERE user_id = %s" % user_id)  # E
    conn.execute("SELECT * FROM data WHERE user_id = {}".format(user_id))  # E
    conn.execute(table + user_id)  # E
    query = "SELECT * FROM data WHERE user_id = " + user_id
    conn.execute(query)  # E
    conn.execute(user_sql.upper())  # E
    conn.executemany(f"INSERT INTO {user_sql} VALUES (?)", [])  # E
    conn.executescript(user_sql)  # E
    conn(user_sql)  # E
    cur.execute(user_sql)  # E
    cur.execute(user_sql, (1,))  # E
    cur.executemany(user_sql, [])  # E
    cur.executescript(user_sql)  # E
    sqlite3.dbapi2.connect(":memory:").execute(user_sql)  # E


def return_types(conn: sqlite3.Connection, cur: sqlite3.Cursor) -> None:
    assert_type(conn.execute("SELECT 1"), sqlite3.Cursor)
    assert_type(conn.executemany("INSERT INTO t VALUES (?)", [(1,)]), sqlite3.Cursor)
    assert_type(conn.executescript("VACUUM;"), sqlite3.Cursor)
    assert_type(cur.execute("SELECT 1"), sqlite3.Cursor)
    assert_type(cur.executemany("INSERT INTO t VALUES (?)", [(1,)]), sqlite3.Cursor)
    assert_type(cur.executescript("VACUUM;"), sqlite3.Cursor)
