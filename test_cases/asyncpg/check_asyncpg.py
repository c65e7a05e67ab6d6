"""asyncpg: the SQL text of Connection's and Pool's execute, executemany, fetch, fetchrow,
fetchval, fetchmany, cursor, prepare and copy_from_query must be literal; values go in
`*args` as $1, $2.  asyncpg ships no types: its own signatures are the base, and the ways to a
connection (`connect()`, `create_pool()`, `pool.acquire()`) are typed by the specification.
"""

from typing import List, Optional

import asyncpg
from asyncpg import Connection, Pool
from asyncpg.pool import PoolConnectionProxy
from typing_extensions import LiteralString, assert_type


class MyConnection(Connection):
    pass


async def accepted(user: str, table: LiteralString, columns: List[LiteralString]) -> None:
    con = await asyncpg.connect("postgresql://localhost/db")
    assert_type(con, Connection)
    await con.execute("DELETE FROM users WHERE name = $1", user)
    await con.executemany("INSERT INTO users (name) VALUES ($1)", [(user,)])
    await con.fetch(f"SELECT * FROM {table} WHERE name = $1", user)
    await con.fetchrow("SELECT " + ", ".join(columns) + " FROM users")
    await con.fetchval("SELECT count(*) FROM users")
    await con.fetchmany("INSERT INTO users (name) VALUES ($1) RETURNING id", [(user,)])
    await con.prepare("SELECT * FROM users WHERE id = $1")
    con.cursor("SELECT * FROM users")
    assert_type(await asyncpg.connect(connection_class=MyConnection), MyConnection)
    pool = await asyncpg.create_pool("postgresql://localhost/db")
    assert_type(pool, Pool)
    await pool.fetch("SELECT * FROM users WHERE name = $1", user)
    async with asyncpg.create_pool() as opened:
        assert_type(opened, Pool)
        async with opened.acquire() as pooled:
            await pooled.fetchval("SELECT 1")


async def rejected(con: Connection, pool: Pool, user: str, user_sql: str) -> None:
    await con.execute(f"DELETE FROM users WHERE name = '{user}'")  # E
    await con.executemany(user_sql, [(user,)])  # E
    await con.fetch("SELECT * FROM users WHERE name = '" + user + "'")  # E
    await con.fetchrow(user_sql)  # E
    await con.fetchval("SELECT count(*) FROM %s" % user)  # E
    await con.fetchmany(user_sql, [(user,)])  # E
    await con.prepare(user_sql)  # E
    con.cursor(user_sql)  # E
    await con.copy_from_query(user_sql, output="out.csv")  # E
    await pool.execute(user_sql)  # E
    await pool.fetch(f"SELECT {user}")  # E
    await pool.fetchrow(user_sql)  # E
    async with pool.acquire() as pooled:
        await pooled.fetch(user_sql)  # E
    acquired = await pool.acquire()
    await acquired.execute(user_sql)  # E
    connected = await asyncpg.connect()
    await connected.fetchval(user_sql)  # E


class Listener:
    """A pooled connection kept under its own class's name (pgqueuer 0.19.5): the proxy has
    Connection's SQL methods, added by the specification as its metaclass adds them."""

    def __init__(self) -> None:
        self.connection: Optional[PoolConnectionProxy] = None

    async def listen(self, pool: Pool, channel: str) -> None:
        self.connection = await pool.acquire()
        assert_type(self.connection, PoolConnectionProxy)
        await self.connection.execute("LISTEN pgqueuer")
        await self.connection.execute(f"LISTEN {channel}")  # E
