"""mysqlclient (MySQLdb): the query text of a cursor's execute and mogrify is SQL and must be
literal (str or bytes); values go in `args`, which the driver escapes.  executemany already asks
for a LiteralString in types-mysqlclient, so it is only shown accepted here.
"""

from typing import Any, List

from MySQLdb.connections import Connection
from MySQLdb.cursors import BaseCursor, Cursor, DictCursor
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
    cur.execute(b"SELECT 1")
    cur.executemany("INSERT INTO users (name) VALUES (%s)", [(user,)])
    cur.mogrify("SELECT %s", (user,))
    cur.mogrify(b"SELECT 1")
    dict_cur.execute("SELECT * FROM users WHERE name = %s", (user,))


def rejected(base: BaseCursor, cur: Cursor, dict_cur: DictCursor, user: str, user_sql: str) -> None:
    cur.execute(f"SELECT * FROM users WHERE name = '{user}'")  # E
    cur.execute("SELECT * FROM users WHERE name = '" + user + "'")  # E
    cur.execute("SELECT * FROM users WHERE name = '%s'" % user)  # E
    cur.execute("SELECT * FROM users WHERE name = '{}'".format(user))  # E
    cur.execute(user_sql, (user,))  # E
    cur.mogrify(user_sql, (user,))  # E
    cur.mogrify(f"SELECT {user}")  # E
    dict_cur.execute(user_sql)  # E
    base.execute(user_sql)  # E


def return_types(cur: Cursor, user: str) -> None:
    assert_type(cur.execute("SELECT 1"), Any)
    assert_type(cur.executemany("INSERT INTO t VALUES (%s)", [(1,)]), "int | None")
    assert_type(cur.mogrify("SELECT %s", (user,)), str)


def from_the_connection(db: Connection, user: str) -> None:
    # Connection.cursor() has no return annotation in types-mysqlclient: replaced, so the
    # cursor it returns is typed by its cursorclass and its execute is the tightened one.
    # (No assert_type here: untightened, the cursor is Any and the cases must still hold.)
    db.cursor().execute("SELECT * FROM users WHERE name = %s", (user,))
    db.cursor(DictCursor).execute("SELECT * FROM users WHERE name = %s", (user,))
    db.cursor().execute("SELECT * FROM users WHERE name = '%s'" % user)  # E
    db.cursor(DictCursor).execute(f"SELECT * FROM users WHERE name = '{user}'")  # E
