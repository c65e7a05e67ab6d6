"""One flow, one finding (issue "Findings right on code nobody here has seen", item 6): where a
wrapper's callers are judged, its inner call is not a second finding; a wrapper's call of
itself is no caller; a wrapper no call reaches keeps its inner finding.  And a sink call whose
text is out of view (`Popen(**options)`) is counted unverified, never lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checking import check_project, found_rules, marked_rules

FLOWS = """\
import sqlite3
import subprocess
from typing import Any

conn = sqlite3.connect(":memory:")


def find(name: str) -> list[Any]:
    return conn.execute(f"SELECT * FROM t WHERE name = '{name}'").fetchall()


def walk(name: str, depth: int) -> None:
    conn.execute("SELECT * FROM t WHERE name = '" + name + "'")
    if depth:
        walk(name, depth - 1)


def unreached(name: str) -> None:
    conn.execute("DELETE FROM t WHERE name = '" + name + "'")  # LS101


def start(**options: Any) -> None:
    subprocess.Popen(**options)


def main(user: str) -> None:
    find(user)  # LS101
    find("alice")
    walk(user, 3)  # LS101
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_one_flow_one_finding(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": FLOWS}, capsys, "--show-unverified")
    assert {(f["line"], f["rule"]) for f in document["findings"]} == marked_rules(FLOWS)
    # `walk`'s call of itself is judged as nothing: no caller, no finding of its own.
    walked = [f for f in document["findings"] if f["line"] == 29]
    assert walked[0]["through"][0] == "walk(name)"
    popen = [u for u in document["unverified"] if u["line"] == 23]
    assert [u["reason"] for u in popen] == ["not-in-view"]


UNTYPED = """\
import sqlite3

conn = sqlite3.connect(":memory:")


def lookup(name):
    return conn.execute("SELECT * FROM t WHERE name = '%s'" % name).fetchall()


def count(table):
    return conn.execute("SELECT COUNT(*) FROM " + table).fetchone()


def main(user: str) -> None:
    lookup(user)  # LS101
    count(user)  # LS101
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_one_flow_when_the_whole_text_is_any(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In an unannotated wrapper, pyright types `"..." % name` Unknown as a whole where mypy
    says `str`, and both type `"..." + table` Any: the whole text's leaves are still only the
    wrapper's parameter, so its judged callers carry the flow under either checker."""
    _, document = check_project(name, tmp_path, {"app.py": UNTYPED}, capsys, "--show-unverified")
    assert found_rules(document) == marked_rules(UNTYPED)


# A wrapper whose only caller is unverified: the caller decides nothing, so the wrapper's own
# call keeps its finding (the corpus's shell/004: `sys.stdin` is `TextIO | Any` in typeshed,
# so the line read from it is `str | Any`).  Before, the counts said "1 with a finding" and the
# finding was gone.
UNVERIFIED_CALLER = """\
import os
import sys


def disk_usage(directory: str) -> str:
    with os.popen("du -sh %s" % directory) as pipe:  # LS201
        return pipe.read()


def main() -> None:
    line = sys.stdin.readline().strip()
    print(disk_usage(line))
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_an_unverified_caller_leaves_the_wrappers_finding(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(
        name, tmp_path, {"app.py": UNVERIFIED_CALLER}, capsys, "--show-unverified"
    )
    assert found_rules(document) == marked_rules(UNVERIFIED_CALLER)
    assert document["sink_calls"]["with_findings"] == len(document["findings"])
    assert [u["line"] for u in document["unverified"]] == [12]


WRAPPED = """\
import sqlite3


class Db:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def sql_ex(self, statement: str) -> None:
        self.conn.execute(statement)

    def main(self, user: str) -> None:
        query = "SELECT 1"
        self.sql_ex(query)
        query = "DELETE FROM t"
        self.sql_ex(query)
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
@pytest.mark.parametrize("tainted", [False, True])
def test_a_wrappers_inner_call_is_counted_by_its_callers(
    name: str, tainted: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """khal 0.14.1's SQLiteDb.sql_ex: every call of the wrapper passes literal SQL, so its
    inner call, whose finding is its callers', is proven with them: the counts no longer said
    "1 with a finding" beside no finding at all.  One caller with a plain str: the inner call
    stays with that caller's finding."""
    source = WRAPPED + ('        self.sql_ex(f"DROP TABLE {user}")  # LS101\n' if tainted else "")
    _, document = check_project(name, tmp_path, {"app.py": source}, capsys)
    assert {(f["line"], f["rule"]) for f in document["findings"]} == marked_rules(source)
    calls = document["sink_calls"]
    if tainted:
        assert (calls["total"], calls["proven"], calls["with_findings"]) == (4, 2, 2)
    else:
        assert (calls["total"], calls["proven"], calls["with_findings"]) == (3, 3, 0)
