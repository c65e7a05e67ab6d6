"""SQLAlchemy: text(), a TextClause built directly and exec_driver_sql take raw SQL, which must
be literal; values go in bound parameters (`:name`, then .bindparams() or the execute
parameters), and queries built with select() need no raw text at all.
"""

from typing import Any, List, Tuple

import sqlalchemy
from sqlalchemy import Connection, CursorResult, TextClause, column, select, table, text
from sqlalchemy.ext.asyncio import AsyncConnection
from typing_extensions import LiteralString, Unpack, assert_type


async def accepted(
    conn: Connection,
    aconn: AsyncConnection,
    user: str,
    name: LiteralString,
    columns: List[LiteralString],
    flag: bool,
) -> None:
    conn.execute(text("SELECT * FROM users WHERE name = :name"), {"name": user})
    conn.execute(text("SELECT * FROM users WHERE name = :name").bindparams(name=user))
    conn.execute(text(f"SELECT * FROM {name} WHERE id = :id"), {"id": 1})
    conn.execute(text("SELECT " + ", ".join(columns) + " FROM users"))
    conn.execute(text("SELECT * FROM users ORDER BY " + ("name" if flag else "id")))
    conn.execute(select(column("id")).select_from(table(user)).where(column("name") == user))
    conn.execute(TextClause("SELECT 1"))
    conn.exec_driver_sql("SELECT * FROM users WHERE name = %(name)s", {"name": user})
    await aconn.exec_driver_sql("SELECT * FROM users WHERE name = %(name)s", {"name": user})
    await aconn.execute(text("SELECT * FROM users WHERE name = :name"), {"name": user})
    sqlalchemy.text("SELECT 1")


async def rejected(conn: Connection, aconn: AsyncConnection, user: str, user_sql: str) -> None:
    text(f"SELECT * FROM users WHERE name = '{user}'")  # E
    text("SELECT * FROM users WHERE name = '" + user + "'")  # E
    text("SELECT * FROM users WHERE name = '%s'" % user)  # E
    text(user_sql)  # E
    sqlalchemy.text(user_sql)  # E
    conn.execute(text(user_sql), {"name": user})  # E
    conn.execute(select(column("id")).where(text(f"name = '{user}'")))  # E
    TextClause(user_sql)  # E
    conn.exec_driver_sql(user_sql)  # E
    conn.exec_driver_sql(f"SELECT * FROM users WHERE name = '{user}'")  # E
    await aconn.exec_driver_sql(user_sql)  # E


async def return_types(conn: Connection, aconn: AsyncConnection) -> None:
    assert_type(text("SELECT 1"), TextClause)
    assert_type(TextClause("SELECT 1"), TextClause)
    assert_type(text("SELECT :x").bindparams(x=1), TextClause)
    assert_type(conn.exec_driver_sql("SELECT 1"), CursorResult[Unpack[Tuple[Any, ...]]])
    assert_type(await aconn.exec_driver_sql("SELECT 1"), CursorResult[Any])
