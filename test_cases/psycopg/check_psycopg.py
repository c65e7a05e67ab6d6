"""psycopg 3 types its query parameters with LiteralString itself (Query: LiteralString, bytes or
a psycopg.sql SQL/Composed), so these errors come without any tightening; values go in `params`,
and dynamic names through psycopg.sql composition.
"""

from typing import Any, List

from psycopg import AsyncCursor, ClientCursor, Connection, Cursor, sql
from typing_extensions import LiteralString, assert_type


async def accepted(
    conn: "Connection[Any]",
    cur: "Cursor[Any]",
    acur: "AsyncCursor[Any]",
    user: str,
    table: LiteralString,
    columns: List[LiteralString],
    flag: bool,
) -> None:
    cur.execute("SELECT * FROM users WHERE name = %s", (user,))
    cur.execute("SELECT * FROM users WHERE name = %(name)s", {"name": user})
    cur.execute(f"SELECT * FROM {table} WHERE name = %s", (user,))
    cur.execute("SELECT " + ", ".join(columns) + " FROM users")
    cur.execute("SELECT * FROM users ORDER BY " + ("name" if flag else "id"))
    cur.execute(b"SELECT 1")
    cur.executemany("INSERT INTO users (name) VALUES (%s)", [(user,)])
    conn.execute("SELECT * FROM users WHERE name = %s", (user,))
    cur.execute(sql.SQL("SELECT * FROM {} WHERE name = %s").format(sql.Identifier(user)), (user,))
    names = sql.SQL(", ").join([sql.Identifier(user), sql.Identifier("id")])
    cur.execute(sql.SQL("SELECT {} FROM users").format(names))
    cur.execute(sql.SQL("INSERT INTO users VALUES ({})").format(sql.Literal(user)))
    await acur.execute("SELECT * FROM users WHERE name = %s", (user,))


async def rejected(
    conn: "Connection[Any]",
    cur: "Cursor[Any]",
    acur: "AsyncCursor[Any]",
    ccur: "ClientCursor[Any]",
    user: str,
    user_sql: str,
) -> None:
    cur.execute(f"SELECT * FROM users WHERE name = '{user}'")  # E
    cur.execute("SELECT * FROM users WHERE name = '" + user + "'")  # E
    cur.execute("SELECT * FROM users WHERE name = '%s'" % user)  # E
    cur.execute(user_sql, (user,))  # E
    cur.executemany(user_sql, [(user,)])  # E
    conn.execute(user_sql)  # E
    ccur.mogrify(user_sql)  # E
    sql.SQL(user_sql)  # E
    sql.SQL(f"SELECT * FROM {user}").format()  # E
    await acur.execute(user_sql)  # E


def return_types(conn: "Connection[Any]", cur: "Cursor[Any]", ccur: "ClientCursor[Any]") -> None:
    assert_type(cur.execute("SELECT 1"), "Cursor[Any]")
    assert_type(cur.executemany("SELECT %s", [(1,)]), None)
    assert_type(conn.execute("SELECT 1"), "Cursor[Any]")
    assert_type(ccur.mogrify("SELECT %s", (1,)), str)
    assert_type(sql.SQL("SELECT 1"), sql.SQL)
    assert_type(sql.SQL("SELECT {}").format(sql.Identifier("t")), sql.Composed)
