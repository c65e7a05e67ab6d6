"""Literal in fact is proven, the same under every checker (issue "Findings right on code nobody
here has seen", item 1): the idioms real SQL code is full of, which every checker types ``str``,
are judged by one pure-``ast`` judge (``core/literal_idioms``) that the mypy plugin and
``check``'s analysis share; a finding the checker's error made there gives way to the proof."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checking import check_project, marked_rules

IDIOMS = """\
import logging
import sqlite3

TABLES = ("events", "alarms")


def markers(conn: sqlite3.Connection, ids: list[int], n: int) -> None:
    conn.execute(f"SELECT * FROM t WHERE id IN ({', '.join(['?'] * len(ids))})", ids)
    conn.execute("DELETE FROM t WHERE id IN (%s)" % ",".join("?" * n), ids)
    conn.execute("SELECT * FROM t WHERE id IN ({})".format(", ".join("?" for _ in ids)), ids)


def tables(conn: sqlite3.Connection) -> None:
    for table in ["events", "alarms"]:
        conn.execute(f"DELETE FROM {table} WHERE old")
    for table in TABLES:
        conn.execute(f"DELETE FROM {table}")


def grown(conn: sqlite3.Connection) -> None:
    query = "UPDATE t SET"
    query += " a = ?,"
    query = query[:-1] + " WHERE id = ?"
    conn.execute(query, (1,))


def logged(user: str) -> None:
    logging.warning(str("no user or command in %s: %s"), "crontab", user)


def not_literal(conn: sqlite3.Connection, names: list[str], user: str) -> None:
    for table in names:
        conn.execute(f"DELETE FROM {table}")  # LS101
    marks = ["?"]
    marks.append(user)
    conn.execute(f"SELECT * FROM t WHERE id IN ({', '.join(marks)})")  # LS101
    conn.execute("SELECT * FROM t WHERE a IN (%s)" % user.join("?" * 3))  # LS101
"""


@pytest.mark.parametrize("name", ["pyright", "basedpyright", "mypy", "ty", "zuban", "pyrefly"])
def test_literal_in_fact_is_proven_under_every_checker(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": IDIOMS}, capsys)
    found = {(f["line"], f["rule"]) for f in document["findings"]}
    assert found == marked_rules(IDIOMS)
    calls = document["sink_calls"]
    assert calls["proven"] == calls["total"] - len(marked_rules(IDIOMS)) == 7
