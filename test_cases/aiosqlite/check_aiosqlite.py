"""aiosqlite: the SQL text of Cursor.execute, executemany and executescript, and of
Connection's execute helpers, must be literal, as for sqlite3; values go in `parameters`
(`?` or `:name` placeholders).
"""

import sqlite3
from typing import Iterable, List

import aiosqlite
from aiosqlite import Connection, Cursor
from typing_extensions import LiteralString, assert_type


async def accepted(
    db: Connection,
    cur: Cursor,
    user: str,
    table: LiteralString,
    columns: List[LiteralString],
    flag: bool,
) -> None:
    await cur.execute("SELECT * FROM users WHERE name = ?", (user,))
    await cur.execute("SELECT * FROM users WHERE name = :name", {"name": user})
    await cur.execute(f"SELECT * FROM {table} WHERE name = ?", (user,))
    await cur.execute("SELECT " + ", ".join(columns) + " FROM users")
    await cur.execute("SELECT * FROM users ORDER BY " + ("name" if flag else "id"))
    await cur.executemany("INSERT INTO users (name) VALUES (?)", [(user,)])
    await cur.executescript("CREATE TABLE a (x); CREATE TABLE b (y);")
    async with db.cursor() as opened:
        await opened.execute("SELECT * FROM users WHERE name = ?", (user,))
    async with db.execute("SELECT * FROM users WHERE name = ?", (user,)) as rows:
        await rows.fetchall()


async def connection_helpers(db: Connection, user: str, user_sql: str) -> None:
    # aiosqlite's own @contextmanager types Connection.execute and its siblings
    # `Callable[..., Result[T]]`, which erases their parameters: the specification replaces
    # each definition whole (@replaced), keeping the result both awaitable and a context.
    await db.execute("SELECT * FROM users WHERE name = ?", (user,))
    assert_type(await db.execute_fetchall("SELECT * FROM users"), Iterable[sqlite3.Row])
    await db.execute_insert("INSERT INTO users (name) VALUES (?)", (user,))
    await db.executemany("INSERT INTO users (name) VALUES (?)", [(user,)])
    await db.executescript("CREATE TABLE c (z);")
    await db.execute(user_sql)  # E
    await db.execute(f"SELECT * FROM users WHERE name = '{user}'")  # E
    await db.execute_fetchall("SELECT * FROM users WHERE name = '" + user + "'")  # E
    await db.execute_insert(user_sql)  # E
    await db.executemany(user_sql, [(user,)])  # E
    await db.executescript(user_sql)  # E
    async with db.execute(user_sql) as rows:  # E
        await rows.fetchall()


async def rejected(db: Connection, cur: Cursor, user: str, user_sql: str) -> None:
    await cur.execute(f"SELECT * FROM users WHERE name = '{user}'")  # E
    await cur.execute("SELECT * FROM users WHERE name = '" + user + "'")  # E
    await cur.execute("SELECT * FROM users WHERE name = '%s'" % user)  # E
    await cur.execute(user_sql, (user,))  # E
    await cur.executemany(user_sql, [(user,)])  # E
    await cur.executescript(user_sql)  # E
    async with db.cursor() as opened:
        await opened.execute(user_sql)  # E
    async with aiosqlite.connect(":memory:") as conn:
        await (await conn.cursor()).execute(f"DELETE FROM {user}")  # E


async def return_types(cur: Cursor) -> None:
    assert_type(await cur.execute("SELECT 1"), Cursor)
    assert_type(await cur.executemany("INSERT INTO t VALUES (?)", [(1,)]), Cursor)
    assert_type(await cur.executescript("VACUUM;"), Cursor)
