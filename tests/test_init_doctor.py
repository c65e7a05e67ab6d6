"""`init` edits pyproject.toml safely; `doctor` measures what each checker does."""

from __future__ import annotations

from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.cli import EXIT_ERROR, EXIT_OK, main

PYPROJECT = """\
# Our project
[project]
name = "demo"  # keep me

[tool.pyright]
typeCheckingMode = "strict"  # and me

[tool.mypy]
strict = true
"""


def _installed(*names: str) -> None:
    for name in names:
        if not CHECKERS[name].is_installed():
            pytest.skip(f"{name} is not installed")


def test_init_adds_settings_keeps_the_rest_and_is_idempotent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright", "mypy", "ty", "pyrefly")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    args = ["init", "--project", str(tmp_path)]
    for name in ("pyright", "mypy", "ty", "pyrefly"):
        args += ["--checker", name]
    assert main(args) == EXIT_OK
    text = (tmp_path / "pyproject.toml").read_text()
    assert text.startswith(PYPROJECT.split("[tool.pyright]")[0])  # comments and [project] kept
    assert (
        'typeCheckingMode = "strict"  # and me\nstubPath = "typings-literalstring/pyright"' in text
    )
    assert 'mypy_path = "$MYPY_CONFIG_FILE_DIR/typings-literalstring/mypy"' in text
    assert 'extra-paths = ["typings-literalstring/ty"]' in text
    assert 'typeshed-path = "typings-literalstring/pyrefly"' in text
    assert 'preset = "default"' in text
    assert (tmp_path / "typings-literalstring" / "pyright" / "sqlite3" / "__init__.pyi").is_file()
    assert (tmp_path / "typings-literalstring" / "pyrefly" / "stdlib" / "VERSIONS").is_file()
    capsys.readouterr()
    assert main(args) == EXIT_OK
    assert (tmp_path / "pyproject.toml").read_text() == text
    assert "already set [tool.pyright] stubPath" in capsys.readouterr().out


def test_init_refuses_to_replace_a_different_setting_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright")
    original = PYPROJECT.replace('"strict"  # and me', '"strict"  # and me\nstubPath = "typings"')
    (tmp_path / "pyproject.toml").write_text(original)
    assert main(["init", "--project", str(tmp_path)]) == EXIT_ERROR
    assert "stubPath = 'typings-literalstring/pyright' would replace 'typings'" in (
        capsys.readouterr().err
    )
    assert (tmp_path / "pyproject.toml").read_text() == original
    assert not (tmp_path / "typings-literalstring").exists()
    assert main(["init", "--project", str(tmp_path), "--force"]) == EXIT_OK
    assert 'stubPath = "typings-literalstring/pyright"' in (tmp_path / "pyproject.toml").read_text()


def test_init_creates_a_pyproject_when_there_is_none(tmp_path: Path) -> None:
    _installed("basedpyright")
    assert main(["init", "--project", str(tmp_path), "--checker", "basedpyright"]) == EXIT_OK
    text = (tmp_path / "pyproject.toml").read_text()
    assert '[tool.basedpyright]\nstubPath = "typings-literalstring/basedpyright"' in text


def test_init_missing_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "--project", str(tmp_path / "nope")]) == EXIT_ERROR
    assert "no such project folder" in capsys.readouterr().err


def test_doctor_measures_enforcement_and_the_projects_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright", "mypy")
    doctor = ["doctor", "--project", str(tmp_path), "--checker", "pyright", "--checker", "mypy"]
    assert main(doctor) == EXIT_OK
    before = capsys.readouterr().out.splitlines()
    assert before[0].startswith("pyright ")
    assert "enforces LiteralString: yes; Appendix C str overloads: yes" in before[0]
    assert "loads our stubs: no (run `typing-literalstring init --checker pyright`)" in before[0]
    assert "enforces LiteralString: no (it reads LiteralString as plain str" in before[1]
    assert "Appendix C str overloads: no (0 overloads in its builtins.pyi)" in before[1]
    assert main(["init", "--project", str(tmp_path), "--checker", "pyright"]) == EXIT_OK
    capsys.readouterr()
    assert main(doctor) == EXIT_OK
    after = capsys.readouterr().out.splitlines()
    assert after[0].endswith("this project's configuration loads our stubs: yes")
    assert after[1].endswith("(run `typing-literalstring init --checker mypy`)")
