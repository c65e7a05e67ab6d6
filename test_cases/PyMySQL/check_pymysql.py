"""PyMySQL: the query text of Cursor.execute, executemany and mogrify is SQL and must be literal;
values go in `args` (`%s` or `%(name)s` placeholders), which the driver escapes.
"""

from typing import List

from pymysql.connections import Connection
from pymysql.cursors import Cursor, DictCursor
from typing_extensions import LiteralString, assert_type


def accepted(
    cur: Cursor,
    dict_cur: DictCursor,
    user: str,
    table: LiteralString,
    columns: List[LiteralString],
    flag: bool,
) -> None:
    cur.execute("SELECT * FROM users WHERE name = %s", (user,))
    cur.execute("SELECT * FROM users WHERE name = %(name)s", {"name": user})
    cur.execute(f"SELECT * FROM {table} WHERE name = %s", [user])
    cur.execute("SELECT " + ", ".join(columns) + " FROM users")
    cur.execute("SELECT * FROM users ORDER BY " + ("name" if flag else "id"))
    cur.execute("SELECT * FROM %s" % table)
    cur.executemany("INSERT INTO users (name) VALUES (%s)", [(user,)])
    cur.mogrify("SELECT %s", (user,))
    dict_cur.execute("SELECT * FROM users WHERE name = %s", (user,))


def rejected(
    conn: "Connection[Cursor]", cur: Cursor, dict_cur: DictCursor, user: str, user_sql: str
) -> None:
    cur.execute(f"SELECT * FROM users WHERE name = '{user}'")  # E
    cur.execute("SELECT * FROM users WHERE name = '" + user + "'")  # E
    cur.execute("SELECT * FROM users WHERE name = '%s'" % user)  # E
    cur.execute("SELECT * FROM users WHERE name = '{}'".format(user))  # E
    cur.execute(user_sql, (user,))  # E
    cur.executemany(user_sql, [(user,)])  # E
    cur.mogrify(user_sql, (user,))  # E
    dict_cur.execute(user_sql)  # E
    conn.cursor().execute(user_sql)  # E


def return_types(conn: "Connection[Cursor]", cur: Cursor, user: str) -> None:
    assert_type(cur.execute("SELECT 1"), int)
    assert_type(cur.execute("SELECT %s", (user,)), int)
    assert_type(cur.executemany("INSERT INTO t VALUES (%s)", [(1,)]), "int | None")
    assert_type(cur.mogrify("SELECT %s", (user,)), str)
    assert_type(conn.cursor(), Cursor)
