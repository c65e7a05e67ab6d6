"""typing_literalstring.sql and typing_literalstring.shell: the dynamic parts of SQL text and
shell commands built with them are LiteralString, so the tightened sinks take them; the same
parts written without them are errors.
"""

import sqlite3
import subprocess
from typing import List

from typing_extensions import assert_type

from typing_literalstring import LiteralString
from typing_literalstring.shell import join, quote
from typing_literalstring.sql import identifier, pick, placeholders


def sql(conn: sqlite3.Connection, ids: List[int], column: str, table: str) -> None:
    conn.execute(f"SELECT * FROM t WHERE id IN ({placeholders(len(ids))})", ids)
    conn.execute("INSERT INTO t VALUES (" + placeholders(3, "%s") + ")", (1, 2, 3))
    conn.execute(f"SELECT * FROM t ORDER BY {pick(column, ('name', 'created'))}")
    conn.execute(f"SELECT {pick(column, ['name', 'created'])} FROM t")
    conn.execute(f"CREATE TABLE {identifier(table)} (id INTEGER)")
    conn.execute("SELECT " + identifier(column) + " FROM t")
    assert_type(placeholders(3), LiteralString)
    assert_type(pick(column, ("a", "b")), LiteralString)
    assert_type(identifier(table), LiteralString)
    conn.execute(f"SELECT * FROM t WHERE id IN ({', '.join(map(str, ids))})")  # E
    conn.execute(f"SELECT * FROM t ORDER BY {column}")  # E
    conn.execute(f"CREATE TABLE {table} (id INTEGER)")  # E


def shell(path: str, files: List[str]) -> None:
    subprocess.run(f"ls -l {quote(path)} | wc -l", shell=True)
    subprocess.run(join(["tar", "czf", "out.tgz", *files]), shell=True)
    subprocess.run("grep -c x " + join(files), shell=True)
    assert_type(quote(path), LiteralString)
    assert_type(join(files), LiteralString)
    subprocess.run(f"ls -l {path} | wc -l", shell=True)  # E
    subprocess.run(" ".join(["tar", "czf", "out.tgz", *files]), shell=True)  # E
