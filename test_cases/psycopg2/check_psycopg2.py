"""psycopg2: the query text of cursor.execute, executemany, mogrify and copy_expert is SQL and
must be literal; values go in `vars`, and dynamic names through psycopg2.sql, whose SQL(...) text
must be literal too while the Composable it builds stays accepted.
"""

import io
from typing import List

from psycopg2 import sql
from psycopg2.extensions import cursor
from typing_extensions import LiteralString, assert_type


def accepted(
    cur: cursor, user: str, table: LiteralString, columns: List[LiteralString], flag: bool
) -> None:
    cur.execute("SELECT * FROM users WHERE name = %s", (user,))
    cur.execute("SELECT * FROM users WHERE name = %(name)s", {"name": user})
    cur.execute(f"SELECT * FROM {table} WHERE name = %s", (user,))
    cur.execute("SELECT " + ", ".join(columns) + " FROM users")
    cur.execute("SELECT * FROM users ORDER BY " + ("name" if flag else "id"))
    cur.execute(b"SELECT 1")
    cur.executemany("INSERT INTO users (name) VALUES (%s)", [(user,)])
    cur.mogrify("SELECT %s", (user,))
    cur.copy_expert("COPY users TO STDOUT", io.BytesIO())
    query = sql.SQL("SELECT * FROM {} WHERE name = %s").format(sql.Identifier(user))
    cur.execute(query, (user,))
    names = sql.SQL(", ").join([sql.Identifier(user), sql.Identifier("id")])
    cur.execute(sql.SQL("SELECT {} FROM users").format(names))
    cur.executemany(sql.SQL("INSERT INTO {} VALUES (%s)").format(sql.Identifier(user)), [(1,)])
    cur.mogrify(sql.SQL("SELECT {}").format(sql.Literal(user)))
    cur.copy_expert(sql.SQL("COPY {} TO STDOUT").format(sql.Identifier(user)), io.BytesIO())
    sql.SQL(f"SELECT * FROM {table}")


def rejected(cur: cursor, user: str, user_sql: str, table: LiteralString) -> None:
    cur.execute(f"SELECT * FROM users WHERE name = '{user}'")  # E
    cur.execute("SELECT * FROM users WHERE name = '" + user + "'")  # E
    cur.execute("SELECT * FROM users WHERE name = '%s'" % user)  # E
    cur.execute(table + user)  # E
    cur.execute(user_sql, (user,))  # E
    cur.executemany(user_sql, [(1,)])  # E
    cur.mogrify(user_sql)  # E
    cur.copy_expert(f"COPY {user} TO STDOUT", io.BytesIO())  # E
    sql.SQL(user_sql)  # E
    sql.SQL(f"SELECT * FROM {user}").format()  # E
    cur.execute(sql.SQL(user_sql))  # E


def return_types(cur: cursor, user: str) -> None:
    assert_type(cur.execute("SELECT 1"), None)
    assert_type(cur.executemany("SELECT %s", [(1,)]), None)
    assert_type(cur.mogrify("SELECT %s", (user,)), bytes)
    assert_type(cur.copy_expert("COPY users TO STDOUT", io.BytesIO()), None)
    assert_type(sql.SQL("SELECT 1"), sql.SQL)
    assert_type(sql.SQL("SELECT {}").format(sql.Identifier(user)), sql.Composed)
