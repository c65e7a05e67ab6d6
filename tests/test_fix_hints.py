"""Each finding's fix names the helper that applies, read from how the string is built."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from typing_literalstring.analysis.fix_hints import (
    NAMES,
    PLACEHOLDERS,
    SHELL_WORDS,
    declared_str,
    hint,
)
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_FINDINGS
from typing_literalstring.commands.cli import main
from typing_literalstring.specs.sinks import LOGGING, SHELL, SQL, Rule

MODULE = 'TABLE: str = "users"\nclass Q:\n    COLUMN: str = "name"\n'
CONSTANT = "declared str, which is never literal: annotate it Final"


@pytest.mark.parametrize(
    ("code", "rule", "expected"),
    [
        ('f"SELECT * FROM t WHERE id IN ({marks})"', SQL, [PLACEHOLDERS]),
        ('"INSERT INTO t VALUES (" + marks + ")"', SQL, [PLACEHOLDERS]),
        ('"SELECT * FROM t WHERE id in (%s)" % marks', SQL, [PLACEHOLDERS]),
        ('"SELECT " + column + " FROM t"', SQL, [NAMES]),
        ('f"SELECT * FROM {table} ORDER BY {column}"', SQL, [NAMES]),
        ('f"ROLLBACK TO SAVEPOINT {savepoint};"', SQL, [NAMES]),
        ('"SELECT * FROM {} WHERE a = 1".format(table)', SQL, [NAMES]),
        ("f\"SELECT * FROM t WHERE name = '{user}'\"", SQL, []),
        ("query", SQL, []),
        ("TABLE", SQL, [CONSTANT]),
        ('f"DELETE FROM {TABLE}"', SQL, [CONSTANT]),
        ('f"SELECT {self.COLUMN} FROM t"', SQL, [CONSTANT]),
        ('f"ls {path}"', SHELL, [SHELL_WORDS]),
        ("command", SHELL, [SHELL_WORDS]),
        ('f"user {user}"', LOGGING, []),
    ],
)
def test_the_hint_follows_the_text_before_each_dynamic_part(
    code: str, rule: Rule, expected: list[str]
) -> None:
    tree = ast.parse(MODULE)
    argument = ast.parse(code, mode="eval").body
    said = hint(rule, argument, declared_str(tree))
    for sentence in expected:
        assert sentence in said
    if not expected:
        assert said == ""
    if NAMES not in expected:
        assert NAMES not in said
    if PLACEHOLDERS not in expected:
        assert PLACEHOLDERS not in said


def test_check_gives_the_hint_in_every_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    (tmp_path / "app.py").write_text(
        "import sqlite3\n\n"
        "def f(conn: sqlite3.Connection, ids: list[int], column: str) -> None:\n"
        '    conn.execute(f"SELECT * FROM t WHERE id IN ({ids})")\n'
        '    conn.execute(f"SELECT {column} FROM t")\n'
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TYPING_LITERALSTRING_CACHE", str(tmp_path / "cache"))
    assert main(["check", "--format", "json", "app.py"]) == EXIT_FINDINGS
    fixes = {f["line"]: f["fix"] for f in json.loads(capsys.readouterr().out)["findings"]}
    assert PLACEHOLDERS in fixes[4]
    assert NAMES in fixes[5]
    assert main(["check", "app.py"]) == EXIT_FINDINGS
    assert "typing_literalstring.sql.placeholders" in capsys.readouterr().out
