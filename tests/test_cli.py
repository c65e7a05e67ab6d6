"""The command line: exit statuses and messages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.cli import EXIT_ERROR, EXIT_OK, main


def test_stubs_builds_an_overlay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    assert main(["stubs", "--checker", "pyright", "--out", str(tmp_path / "o")]) == EXIT_OK
    assert (tmp_path / "o" / "sqlite3" / "__init__.pyi").is_file()
    assert "tightened sqlite3/__init__.pyi" in capsys.readouterr().out


def test_stubs_for_a_checker_without_typeshed_files_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stubs", "--checker", "ty", "--out", str(tmp_path / "o")]) == EXIT_ERROR
    assert "build its overlay from another checker's typeshed" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_module_entry_point_and_version() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "typing_literalstring", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stdout.startswith("typing-literalstring ")
