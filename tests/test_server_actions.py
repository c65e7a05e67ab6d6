"""The server's quick fixes, applied as an editor applies them, then checked again by `check`."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pytest

pytest.importorskip("pygls", reason="the server extra (pygls) is not installed")

from lsprotocol import types

from typing_literalstring.commands.server import actions, protocol
from typing_literalstring.commands.server.messages import Request
from typing_literalstring.commands.server.options import Options
from typing_literalstring.commands.server.worker import run

PROGRAM = '''"""Dynamic SQL and shell commands whose fixes are mechanical."""

import sqlite3
import subprocess


def find(conn: sqlite3.Connection, ids: list[str]) -> None:
    conn.execute(f"SELECT * FROM t WHERE id IN ({', '.join(ids)})")


def names(conn: sqlite3.Connection, ids: list[str]) -> None:
    query = f"SELECT name FROM t WHERE id IN ({','.join(str(i) for i in ids)})"
    conn.execute(query)


def archive(name: str) -> None:
    subprocess.run(f"tar czf /tmp/{name}.tgz /home/{name}", shell=True, check=True)
    subprocess.run("du -sh /home/" + name, shell=True, check=True)
'''


def _diagnostics(folder: Path, cache: Path, encoding: str = "utf-16") -> list[types.Diagnostic]:
    outcome = run(Request(str(folder), Options(cache_dir=str(cache)), encoding))
    assert not outcome.error, outcome.error
    return [protocol.diagnostic(i) for i in outcome.items[str(folder / "app.py")]]


def _apply(text: str, edits: Sequence[types.TextEdit]) -> str:
    """The edits applied to ``text`` as an editor does (UTF-16 positions, all at once)."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        line = lines[position.line]
        units, index = 0, 0
        while index < len(line) and units < position.character:
            units += 2 if ord(line[index]) > 0xFFFF else 1
            index += 1
        return sum(len(x) + 1 for x in lines[: position.line]) + index

    spans = sorted((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits)
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def _fixes(app: Path, shown: list[types.Diagnostic], title: str) -> list[types.TextEdit]:
    edits: list[types.TextEdit] = []
    text = app.read_text(encoding="utf-8")
    for diagnostic in shown:
        found = actions.code_actions(app.as_uri(), text, [diagnostic], "utf-16")
        for action in found:
            if action.title.startswith(title) and action.edit and action.edit.changes:
                for edit in action.edit.changes[app.as_uri()]:
                    if edit not in edits:  # one import for all the fixes
                        edits.append(edit)
    return edits


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n')
    (tmp_path / "app.py").write_text(PROGRAM, encoding="utf-8")
    return tmp_path


def test_placeholders_and_quote_fixes_leave_nothing_to_report(
    project: Path, cache_dir: Path
) -> None:
    app = project / "app.py"
    shown = _diagnostics(project, cache_dir)
    assert sorted((d.code, d.range.start.line + 1) for d in shown) == [
        ("LS101", 8),
        ("LS101", 13),
        ("LS201", 17),
        ("LS201", 18),
    ]
    edits = _fixes(app, shown, "Build the IN list") + _fixes(app, shown, "Quote each value")
    fixed = _apply(app.read_text(encoding="utf-8"), edits)
    assert "from typing_literalstring.sql import placeholders\n" in fixed
    assert "from typing_literalstring.shell import quote\n" in fixed
    assert (
        'conn.execute(f"SELECT * FROM t WHERE id IN ({placeholders(len(ids))})", tuple(ids))'
        in fixed
    )
    assert 'subprocess.run(f"tar czf /tmp/{quote(name)}.tgz /home/{quote(name)}"' in fixed
    assert 'subprocess.run("du -sh /home/" + quote(name), shell=True' in fixed
    app.write_text(fixed, encoding="utf-8")
    compile(fixed, "app.py", "exec")
    assert _diagnostics(project, cache_dir) == []


def test_the_suppression_fix_silences_each_finding_with_a_reason_to_write(
    project: Path, cache_dir: Path
) -> None:
    app = project / "app.py"
    shown = _diagnostics(project, cache_dir)
    edits = _fixes(app, shown, "Suppress")
    assert len(edits) == 4
    fixed = _apply(app.read_text(encoding="utf-8"), edits)
    assert fixed.count(f"  # typing-literalstring: ignore[LS101] {actions.REASON}\n") == 2
    app.write_text(fixed, encoding="utf-8")
    assert _diagnostics(project, cache_dir) == []
    # A second rule on a statement that has our comment joins its brackets.
    text = "import os\nos.system(x)  # typing-literalstring: ignore[LS101] reason\n"
    diagnostic = types.Diagnostic(
        range=types.Range(start=types.Position(1, 0), end=types.Position(1, 12)),
        message="",
        code="LS201",
        source="typing-literalstring",
        data={"rule": "LS201", "callee": "os.system", "api": "os.system"},
    )
    (action,) = [
        a
        for a in actions.code_actions("file:///x.py", text, [diagnostic], "utf-16")
        if a.title.startswith("Suppress")
    ]
    assert action.edit is not None
    assert action.edit.changes is not None
    assert "ignore[LS101, LS201] reason" in _apply(text, action.edit.changes["file:///x.py"])


def test_positions_count_in_the_editors_encoding(project: Path, cache_dir: Path) -> None:
    app = project / "app.py"
    app.write_text(
        'import os\n\n\ndef f(name: str) -> None:\n    s = "é😀"; os.system("ls " + name)\n',
        encoding="utf-8",
    )
    columns = {}
    for encoding in ("utf-8", "utf-16", "utf-32"):
        (shown,) = _diagnostics(project, cache_dir, encoding)
        columns[encoding] = shown.range.start.character
    # `    s = "é😀"; ` is 14 characters: é is 2 bytes in UTF-8, 😀 is 4 bytes and 2 UTF-16 units.
    assert columns == {"utf-8": 18, "utf-16": 15, "utf-32": 14}


def test_unverified_outcomes_show_at_the_configured_severity(
    project: Path, cache_dir: Path
) -> None:
    (project / "app.py").write_text(
        "import json\nimport sqlite3\n\n\n"
        "def find(conn: sqlite3.Connection, raw: str) -> None:\n"
        "    data = json.loads(raw)\n"
        '    conn.execute("SELECT * FROM t WHERE name = \'" + data["name"] + "\'")\n',
        encoding="utf-8",
    )
    for chosen, severity in (("warning", 2), ("information", 3)):
        options = Options(cache_dir=str(cache_dir), unverified_severity=chosen)
        outcome = run(Request(str(project), options, "utf-16"))
        shown = [protocol.diagnostic(i) for i in outcome.items[str(project / "app.py")]]
        assert [(d.code, d.severity) for d in shown] == [("LS902", severity)]
        assert shown[0].message.startswith("Sink text built from a value of type Any")
