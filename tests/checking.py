"""A small project written for a test and checked as a user would: `check --format json`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands.cli import main


def check_project(
    name: str,
    folder: Path,
    files: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    *options: str,
) -> tuple[int, dict[str, Any]]:
    """``files`` (name -> text) written into ``folder`` beside a pyproject.toml, checked with
    the checker ``name`` ("mypy" runs with our plugin); its exit status and JSON document.
    Skips the test when the checker is not installed."""
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    (folder / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n')
    for file, text in files.items():
        (folder / file).write_text(text, encoding="utf-8")
    status = main(
        ["check", "--checker", name, "--format", "json", "--cache-dir", str(folder / "cache"),
         *options, *(str(folder / file) for file in files)]
    )  # fmt: skip
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return status, document


def write_project(folder: Path, table: str, files: dict[str, str]) -> Path:
    """A project in ``folder`` of ``files`` (name -> text), with a pyproject.toml that ends
    with ``table`` (a [tool.typing-literalstring] table, say)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(
        f'[project]\nname = "app"\nversion = "0"\n\n{table}', encoding="utf-8"
    )
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def marked_rules(text: str) -> set[tuple[int, str]]:
    """(line, rule) of each line of a test program that ends with `  # LSnnn`."""
    return {
        (n, line.split("  # ", 1)[1])
        for n, line in enumerate(text.splitlines(), 1)
        if "  # LS" in line
    }


def found_rules(document: dict[str, Any]) -> set[tuple[int, str]]:
    """(line, rule) of each finding of a `check --format json` document."""
    return {(f["line"], f["rule"]) for f in document["findings"]}
