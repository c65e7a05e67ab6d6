"""What `check` reads of a checkout, and how its configuration could hide it (issue 43, items 1,
3, 5 and 6): the table's baseline stays in the project; a folder that cannot be listed is
named and every other finding kept; a package named build or dist is checked while build
output is skipped, and every folder skipped is named; a configuration that hides findings or
files says how many, and warns when it can report nothing at all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.core.config import ConfigError, read

# One SQL finding, line 5.
APP = """\
import sqlite3


def f(conn: sqlite3.Connection, table: str) -> None:
    conn.execute(f"SELECT * FROM {table}")
"""
TABLE = "[tool.typing-literalstring]\n"
CHECKERS_ = ("pyright", "mypy", "basedpyright", "ty", "zuban", "pyrefly")
PROFILES = ("default", "strict")


def _project(folder: Path, table: str = "", files: dict[str, str] | None = None) -> Path:
    """A project of ``files`` (default: app.py) whose pyproject.toml ends with ``table``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(
        f'[project]\nname = "app"\nversion = "0"\n\n{table}', encoding="utf-8"
    )
    for name, text in (files or {"app.py": APP}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _installed(name: str = "pyright") -> None:
    if not CHECKERS["mypy+plugin" if name == "mypy" else name].is_installed():
        pytest.skip(f"{name} is not installed")


def _check(
    folder: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *options: str,
) -> tuple[int, str, str]:
    """`check` run from ``folder`` with pyright: its exit status, stdout and stderr."""
    _installed()
    monkeypatch.chdir(folder)
    status = main(["check", "--cache-dir", str(cache_dir), *options])
    out, err = capsys.readouterr()
    return status, out, err


def _found(document: dict[str, Any]) -> list[tuple[str, int, str]]:
    return sorted((f["path"], f["line"], f["rule"]) for f in document["findings"])


# --- 1. the table's baseline stays inside the project -----------------------------------------


@pytest.mark.parametrize("where", ["dotdot", "absolute", "linked-folder", "linked-file"])
def test_the_tables_baseline_outside_the_project_is_refused_naming_it(
    tmp_path: Path, where: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "p"
    root.mkdir()
    if where == "linked-folder":
        (root / "ci").symlink_to(outside, target_is_directory=True)
    if where == "linked-file":
        (root / "baseline.json").symlink_to(outside / "b.json")
    value = {
        "dotdot": "../outside/b.json",
        "absolute": str(outside / "b.json"),
        "linked-folder": "ci/b.json",
        "linked-file": "baseline.json",
    }[where]
    _project(root, f"{TABLE}baseline = {json.dumps(value)}\n")
    with pytest.raises(ConfigError) as refused:
        read(root, CHECKERS_, PROFILES)
    said = str(refused.value)
    for part in ("[tool.typing-literalstring] baseline", repr(value), "outside the project"):
        assert part in said
    assert "--baseline PATH on the command line" in said  # the fix


@pytest.mark.parametrize("value", ["ci/b.json", "./ci/../b.json", "inside-link/b.json", "ABS"])
def test_the_tables_baseline_inside_the_project_is_taken(tmp_path: Path, value: str) -> None:
    root = tmp_path.resolve() / "p"
    (root / "real").mkdir(parents=True)
    (root / "inside-link").symlink_to(root / "real", target_is_directory=True)
    value = str(root / "ci" / "b.json") if value == "ABS" else value
    _project(root, f"{TABLE}baseline = {json.dumps(value)}\n")
    assert read(root, CHECKERS_, PROFILES).baseline == root / value


def test_write_baseline_refuses_the_tables_path_out_and_writes_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    checker_processes: list[list[str]],
) -> None:
    project = _project(tmp_path / "p", f'{TABLE}baseline = "../../outside/baseline.json"\n')
    monkeypatch.chdir(project)
    assert main(["check", "--write-baseline"]) == EXIT_ERROR
    assert "baseline = '../../outside/baseline.json' leads outside" in capsys.readouterr().err
    assert not (tmp_path.parent / "outside").exists()
    assert checker_processes == []  # refused before anything ran


def test_the_command_lines_baseline_is_the_users_own_choice(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(tmp_path / "p")
    elsewhere = tmp_path / "ci-cache" / "baseline.json"
    status, _, err = _check(
        project, cache_dir, capsys, monkeypatch, "--baseline", str(elsewhere), "--write-baseline"
    )
    assert status == EXIT_OK, err
    assert json.loads(elsewhere.read_text())["findings"][0]["rule"] == "LS101"
