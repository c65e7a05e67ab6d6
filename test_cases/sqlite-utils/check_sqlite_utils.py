"""sqlite-utils: the SQL text its Database runs (`execute`, `executescript`, `query`,
`execute_returning_dicts`), a view's body (`create_view`) and the fragments pasted into its
statements (`where=`, `order_by=`, `select=`) must be literal; values go in `parameters`,
`params` or `where_args` (`?` or `:name`), and names given as names are quoted by the library.
"""

import sqlite3
from typing import Any, Dict, Generator, List, Tuple

from sqlite_utils import Database
from sqlite_utils.db import Table
from typing_extensions import LiteralString, assert_type


def accepted(db: Database, table: Table, user: str, column: LiteralString, flag: bool) -> None:
    db.execute("SELECT * FROM users WHERE name = ?", [user])
    db.execute("SELECT * FROM users WHERE name = :name", {"name": user})
    db.execute(f"SELECT {column} FROM users WHERE name = ?", [user])
    db.executescript("CREATE TABLE a (x); CREATE TABLE b (y);")
    for row in db.query("SELECT * FROM users WHERE name = ?", [user]):
        print(row)
    db.execute_returning_dicts("SELECT * FROM users ORDER BY " + ("name" if flag else "id"))
    db.create_view("adults", "SELECT * FROM users WHERE age >= 18", replace=True)
    list(table.rows_where("name = ?", [user], order_by="id desc", select="id, name"))
    table.count_where("age > :age", {"age": 18})
    list(table.pks_and_rows_where("name = ?", [user], order_by=column))
    table.delete_where("name = ?", [user])
    table.convert("name", str.upper, where="id > ?", where_args=[1])
    list(table.search(user, order_by="rank", where="id > ?", where_args=[1]))
    table.search_sql(order_by="rank", where="id > 1")
    db.table(user).insert({"name": user})  # a table named by the user: quoted by the library
    list(db["users"].rows_where(select=column))


def rejected(db: Database, table: Table, user: str, user_sql: str) -> None:
    db.execute(f"SELECT * FROM users WHERE name = '{user}'")  # E
    db.execute("SELECT * FROM users WHERE name = '" + user + "'", [])  # E
    db.executescript(user_sql)  # E
    db.query("SELECT * FROM users WHERE name = '%s'" % user)  # E
    db.execute_returning_dicts(user_sql)  # E
    db.create_view("v", f"SELECT * FROM users WHERE name = '{user}'")  # E
    table.rows_where(f"name = '{user}'")  # E
    table.rows_where("name = ?", [user], order_by=user)  # E
    table.rows_where(select=user_sql)  # E
    table.count_where(user_sql)  # E
    table.pks_and_rows_where(order_by=user)  # E
    table.delete_where(f"id = {user}")  # E
    table.convert("name", str.upper, where=user_sql)  # E
    table.search(user, where=f"name = '{user}'")  # E
    table.search_sql(order_by=user)  # E


def return_types(db: Database, table: Table) -> None:
    assert_type(db.execute("SELECT 1"), sqlite3.Cursor)
    assert_type(db.executescript("VACUUM;"), sqlite3.Cursor)
    assert_type(db.query("SELECT 1"), Generator[Dict[Any, Any], None, None])
    assert_type(db.execute_returning_dicts("SELECT 1"), List[Dict[Any, Any]])
    assert_type(table.count_where("id > 1"), int)
    assert_type(table.rows_where("id > 1"), Generator[Dict[str, Any], None, None])
    assert_type(
        table.pks_and_rows_where(), Generator[Tuple[Any, Dict[str, Any]], None, None]
    )
