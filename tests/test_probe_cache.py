"""The probed copies kept from one check to the next (analysis/probe_cache.py): a check of an
unchanged project takes them instead of finding its sink calls and wrappers again, and says
exactly what the check that made them said; any change to a file makes them anew.

Pickling loses identities: the analysis keys its nodes by ``id()`` and compares rules with
``is``.  The first version of the cache lost both, and a kept check said "not asked" of every
call (39 of huey's 91) and "a SQL sink" where the made one said "an SQL sink".
"""

from __future__ import annotations

import ast
import pickle
from pathlib import Path
from typing import Any

import pytest

from tests.checking import check_project
from typing_literalstring.analysis import probe_cache, probes, unverified
from typing_literalstring.specs.sinks import RULES

APP = """\
import logging
import os
import sqlite3
import subprocess
from typing import Any

log = logging.getLogger(__name__)


def run_sql(conn: sqlite3.Connection, sql: str) -> None:
    conn.execute(sql)


def handler(conn: sqlite3.Connection, name: str, ids: list[int], payload: Any) -> None:
    run_sql(conn, "SELECT 1")
    run_sql(conn, f"SELECT * FROM t WHERE name = '{name}'")  # LS101
    marks = ", ".join(["?"] * len(ids))
    conn.execute(f"SELECT * FROM t WHERE id IN ({marks})", ids)
    subprocess.run(f"ls {name}", shell=True)  # LS201
    os.system(payload)
    log.info("user %s" % name)  # LS302
"""

CHECKERS = ["pyright", "mypy"]


def _slot_files(folder: Path) -> list[Path]:
    return sorted((folder / "cache" / "prepared").glob("*.pickle"))


def _check(name: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    document = check_project(name, folder, {"app.py": APP}, capsys)[1]
    return document


@pytest.mark.parametrize("name", CHECKERS)
def test_a_kept_check_says_what_the_made_one_said(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _check(name, tmp_path, capsys)
    assert len(_slot_files(tmp_path)) == 1
    assert made["sink_calls"]["total"] >= 6
    assert made["findings"]

    def not_again(*_: object, **__: object) -> object:
        raise AssertionError("the sink calls were found again: the kept copies were not taken")

    monkeypatch.setattr(probes, "with_wrappers", not_again)
    kept = _check(name, tmp_path, capsys)
    again = _check(name, tmp_path, capsys)
    assert kept == made
    assert again == made


@pytest.mark.parametrize("name", CHECKERS)
def test_an_edit_makes_the_copies_anew(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _check(name, tmp_path, capsys)
    lines = {(f["line"], f["rule"]) for f in before["findings"]}
    assert (15, "LS101") not in lines
    (tmp_path / "app.py").write_text(
        APP.replace('run_sql(conn, "SELECT 1")', "run_sql(conn, name)")
    )
    status, after = check_project(name, tmp_path, {}, capsys, str(tmp_path / "app.py"))
    assert status == 1
    assert (15, "LS101") in {(f["line"], f["rule"]) for f in after["findings"]}
    assert len(_slot_files(tmp_path)) == 1  # one slot per project: overwritten, never grown


@pytest.mark.parametrize("damage", ["truncated", "foreign", "empty"])
def test_a_damaged_slot_is_only_a_miss(
    damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = _check("mypy", tmp_path, capsys)
    (slot,) = _slot_files(tmp_path)
    data = slot.read_bytes()
    slot.write_bytes(
        {"truncated": data[: len(data) // 2], "foreign": b"tls-prepared-1\nabc\n", "empty": b""}[
            damage
        ]
    )
    assert _check("mypy", tmp_path, capsys) == made


def test_rules_unpickle_as_themselves() -> None:
    for rule in RULES:
        assert pickle.loads(pickle.dumps(rule)) is rule


def test_tags_follow_their_nodes_through_a_pickle() -> None:
    source = "import os\n\ndef f(cmd: str) -> None:\n    os.system('ls ' + cmd)\n"
    tree = ast.parse(source)
    instrumented = unverified.analyse(source, tree)
    assert instrumented.tags
    assert instrumented.parts
    copy: unverified.Instrumented = pickle.loads(pickle.dumps(instrumented))
    nodes = {id(n): n for n in ast.walk(copy.tree)}
    assert {type(nodes[k]).__name__ for k in copy.tags} == {
        type(n).__name__ for n in ast.walk(tree) if id(n) in instrumented.tags
    }
    assert set(copy.tags.values()) == set(instrumented.tags.values())
    assert all(key in nodes for key in [*copy.parts, *copy.scopes, *copy.joined])


def test_the_key_changes_with_every_input(tmp_path: Path) -> None:
    file = tmp_path / "a.py"
    base = ({file: "1"}, [tmp_path], "pyright", "1.1", "default", "_tls_probe_x")
    keys = {
        probe_cache.key(*base),
        probe_cache.key({file: "2"}, *base[1:]),
        probe_cache.key({tmp_path / "b.py": "1"}, *base[1:]),
        probe_cache.key(base[0], [tmp_path / "src"], *base[2:]),
        probe_cache.key(*base[:2], "mypy+plugin", *base[3:]),
        probe_cache.key(*base[:3], "1.2", *base[4:]),
        probe_cache.key(*base[:4], "strict", base[5]),
        probe_cache.key(*base[:5], "_tls_probe_y"),
    }
    assert len(keys) == 8
