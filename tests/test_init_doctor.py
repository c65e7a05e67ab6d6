"""`init` edits pyproject.toml safely; `doctor` measures what each checker does."""

from __future__ import annotations

from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS, MypyPlugin
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
    assert 'plugins = ["typing_literalstring.mypy"]' in text
    assert 'extra-paths = ["typings-literalstring/ty"]' in text
    assert 'typeshed-path = "typings-literalstring/pyrefly"' in text
    assert 'preset = "default"' in text
    assert (tmp_path / "typings-literalstring" / "pyright" / "sqlite3" / "__init__.pyi").is_file()
    assert (tmp_path / "typings-literalstring" / "pyrefly" / "stdlib" / "VERSIONS").is_file()
    capsys.readouterr()
    assert main(args) == EXIT_OK
    assert (tmp_path / "pyproject.toml").read_text() == text
    out = capsys.readouterr().out
    assert "already set [tool.pyright] stubPath" in out
    assert "already set [tool.mypy] plugins = ['typing_literalstring.mypy']" in out


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('plugins = ["pydantic.mypy"]', 'plugins = ["pydantic.mypy", "typing_literalstring.mypy"]'),
        (
            'plugins = "pydantic.mypy, x.y"',
            'plugins = ["pydantic.mypy", "x.y", "typing_literalstring.mypy"]',
        ),
        (
            'plugins = ["typing_literalstring.mypy", "a.b"]',
            'plugins = ["typing_literalstring.mypy", "a.b"]',
        ),
    ],
)
def test_init_merges_the_mypy_plugin_into_the_plugins_list(
    tmp_path: Path, before: str, after: str
) -> None:
    _installed("mypy")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT + before + "\n")
    args = ["init", "--project", str(tmp_path), "--checker", "mypy"]
    assert main(args) == EXIT_OK  # a merge replaces nothing: no --force needed
    text = (tmp_path / "pyproject.toml").read_text()
    assert text.count("plugins =") == 1
    assert after in text
    assert main(args) == EXIT_OK
    assert (tmp_path / "pyproject.toml").read_text() == text


def test_init_refuses_a_plugins_value_it_cannot_merge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("mypy")
    original = PYPROJECT + "plugins = 3\n"
    (tmp_path / "pyproject.toml").write_text(original)
    args = ["init", "--project", str(tmp_path), "--checker", "mypy"]
    assert main(args) == EXIT_ERROR
    assert "would replace 3" in capsys.readouterr().err
    assert (tmp_path / "pyproject.toml").read_text() == original
    assert main([*args, "--force"]) == EXIT_OK
    assert 'plugins = ["typing_literalstring.mypy"]' in (tmp_path / "pyproject.toml").read_text()


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
    # mypy as `check` runs it: with our plugin, measured by the same probe.
    assert "enforces LiteralString: yes (with our plugin, typing_literalstring.mypy)" in before[1]
    assert "Appendix C str overloads: yes;" in before[1]
    assert before[1].endswith(
        "loads our stubs: no; enables our plugin: no "
        "(run `typing-literalstring init --checker mypy`)"
    )
    assert main(["init", "--project", str(tmp_path), "--checker", "pyright"]) == EXIT_OK
    capsys.readouterr()
    assert main(doctor) == EXIT_OK
    after = capsys.readouterr().out.splitlines()
    assert after[0].endswith("this project's configuration loads our stubs: yes")
    assert after[1].endswith("(run `typing-literalstring init --checker mypy`)")
    assert main(["init", "--project", str(tmp_path), "--checker", "mypy"]) == EXIT_OK
    capsys.readouterr()
    assert main(doctor) == EXIT_OK
    assert (
        capsys.readouterr()
        .out.splitlines()[1]
        .endswith("this project's configuration loads our stubs: yes; enables our plugin: yes")
    )


def test_doctor_says_why_mypy_does_not_enforce_when_the_plugin_cannot_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("mypy")

    def too_old(self: MypyPlugin) -> str:
        return "too old"

    monkeypatch.setattr(MypyPlugin, "plugin_problem", too_old)
    assert main(["doctor", "--project", str(tmp_path), "--checker", "mypy"]) == EXIT_OK
    line = capsys.readouterr().out.splitlines()[0]
    assert (
        "enforces LiteralString: no (it reads LiteralString as plain str: mypy issue 12554; "
        in line
    )
    assert "our plugin cannot run: too old)" in line
