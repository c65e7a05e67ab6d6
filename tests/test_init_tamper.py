"""`doctor` fails on an overlay changed since `init` wrote it (issue 43, item 2): the committed
`.typing-literalstring/stubs/` is loaded by the team's own checker as it is, so a pull request
that loosens a sink back to `str` there silences the checker, while the probe that says "loads
our stubs" still passes.  Each changed, missing or added file is named, with the fix."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_OK
from typing_literalstring.commands.cli import main

STUBS = Path(".typing-literalstring", "stubs")
SQLITE = "sqlite3/__init__.pyi"
FIX = "run `typing-literalstring init --checker pyright`: it writes the folder again"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    (tmp_path / "app.py").write_text(
        "import sqlite3\n\n\ndef f(u: str) -> None:\n"
        '    sqlite3.connect(":memory:").execute(f"SELECT {u}")\n'
    )
    assert main(["init", "--project", str(tmp_path), "--python", sys.executable]) == EXIT_OK
    return tmp_path


def _doctor(project: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    args = ["doctor", "--project", str(project), "--checker", "pyright"]
    status = main([*args, "--python", sys.executable])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _loosen(overlay: Path) -> None:
    stub = overlay / SQLITE
    text = stub.read_text()
    assert "sql: LiteralString" in text
    stub.write_text(text.replace("sql: LiteralString", "sql: str"))


def test_doctor_names_a_stub_loosened_by_hand(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay = project / STUBS / "pyright"
    _loosen(overlay)
    status, out, err = _doctor(project, capsys)
    assert status == EXIT_ERROR
    assert (
        f".typing-literalstring/stubs/pyright is not what init wrote (the digests in init.json): "
        f"changed {SQLITE}."
    ) in err
    assert FIX in err
    assert "loads our stubs: yes, but not the stubs init wrote" in out
    # What init writes again is its own stub, and doctor is content.
    assert main(["init", "--project", str(project), "--python", sys.executable]) == EXIT_OK
    assert "sql: LiteralString" in (overlay / SQLITE).read_text()
    assert _doctor(project, capsys)[0] == EXIT_OK


def test_doctor_names_missing_and_added_files(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay = project / STUBS / "pyright"
    (overlay / "subprocess.pyi").unlink()
    (overlay / "shlex.pyi").write_text("def quote(s: str) -> str: ...\n")
    status, _, err = _doctor(project, capsys)
    assert status == EXIT_ERROR
    assert "added shlex.pyi, missing subprocess.pyi." in err


def test_doctor_compares_with_a_fresh_build_when_init_json_was_changed_too(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whoever loosens the stub can update its digest in init.json: the fresh build of the
    same overlay still shows it."""
    overlay = project / STUBS / "pyright"
    _loosen(overlay)
    record = project / STUBS / "init.json"
    data = json.loads(record.read_text())
    loosened = (overlay / SQLITE).read_bytes()
    data["overlays"]["pyright"]["files"][SQLITE] = hashlib.sha256(loosened).hexdigest()
    record.write_text(json.dumps(data))
    status, _, err = _doctor(project, capsys)
    assert status == EXIT_ERROR
    assert "is not what init wrote" not in err
    assert (
        f".typing-literalstring/stubs/pyright differs from a fresh build of the same overlay: "
        f"changed {SQLITE}."
    ) in err
    assert FIX in err


def test_doctor_accepts_a_checkout_with_crlf_line_endings(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """git's core.autocrlf writes the committed stubs with CRLF: no type changes."""
    for path in (project / STUBS / "pyright").rglob("*.pyi"):
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert _doctor(project, capsys)[0] == EXIT_OK


def test_doctor_fails_on_a_record_without_digests(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = project / STUBS / "init.json"
    data = json.loads(record.read_text())
    del data["overlays"]["pyright"]["files"]
    record.write_text(json.dumps(data))
    status, _, err = _doctor(project, capsys)
    assert status == EXIT_ERROR
    assert "init.json records no digest of its files" in err
