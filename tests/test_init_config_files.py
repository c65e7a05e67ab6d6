"""`init` writes into the file each checker reads (issue 43, item 4): with a mypy.ini, .mypy.ini
or setup.cfg [mypy], a pyrightconfig.json, a ty.toml or a pyrefly.toml in the project, settings
written into pyproject.toml load nothing, and the plain checker then passes.  Each case runs the
checker as a user would, from the project root, after init, and wants the injection reported;
`doctor` fails when our settings sit in a file the checker does not read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.test_init_tools import (  # the runs of issue 29's test, reused
    DEFAULT_RUNS,
    _diagnostics,  # pyright: ignore[reportPrivateUsage]
    _has,  # pyright: ignore[reportPrivateUsage]
)
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_OK
from typing_literalstring.commands.cli import main

APP = """\
import sqlite3


def f(u: str) -> None:
    sqlite3.connect(":memory:").execute(f"SELECT {u}")
"""
INJECTION = "app.py:5:"

PYRIGHTCONFIG = """\
{
  // the team's settings: pyright reads this file, not [tool.pyright]
  "include": ["."], /* everything */
  "typeCheckingMode": "standard",
}
"""

# The file that wins over pyproject.toml for each checker, as a team writes it, and what of it
# must still be there after init.  pyproject.toml is there too, with a [project] table only.
CASES = {
    "mypy-mypy.ini": ("mypy", "mypy.ini", "# team settings\n[mypy]\nwarn_unused_configs = True\n"),
    "mypy-.mypy.ini": ("mypy", ".mypy.ini", "[mypy]\n; ours\nwarn_unused_configs = True\n"),
    "mypy-setup.cfg": (
        "mypy",
        "setup.cfg",
        "[metadata]\nname = demo\n\n# type checking\n[mypy]\nwarn_unused_configs = True\n\n"
        "[flake8]\nmax-line-length = 99\n",
    ),
    "zuban-mypy.ini": ("zuban", "mypy.ini", "[mypy]\nwarn_unused_configs = True\n"),
    "pyright-pyrightconfig.json": ("pyright", "pyrightconfig.json", PYRIGHTCONFIG),
    "basedpyright-pyrightconfig.json": ("basedpyright", "pyrightconfig.json", PYRIGHTCONFIG),
    "ty-ty.toml": ("ty", "ty.toml", '# ty\n[rules]\ninvalid-assignment = "error"\n'),
    "pyrefly-pyrefly.toml": ("pyrefly", "pyrefly.toml", '# pyrefly\nproject-includes = ["."]\n'),
}
PYPROJECT = '[project]\nname = "demo"\nversion = "0"\n'


def _installed(*names: str) -> None:
    for name in names:
        if not CHECKERS[name].is_installed():
            pytest.skip(f"{name} is not installed")


def _plain(name: str, project: Path) -> str:
    """The diagnostics of ``name``'s own run from ``project`` (test_init_tools.py's run)."""
    return "\n".join(_diagnostics(name, project))


@pytest.mark.parametrize("case", sorted(CASES))
def test_init_writes_the_file_the_checker_reads_and_the_plain_checker_reports(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    checker, name, original = CASES[case]
    _installed(checker)
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / name).write_text(original)
    (tmp_path / "app.py").write_text(APP)
    args = ["init", "--project", str(tmp_path), "--checker", checker, "--python", sys.executable]
    assert main(args) == EXIT_OK
    output = _plain(checker, tmp_path)
    assert INJECTION in output, output
    assert ".typing-literalstring" not in output, output
    out = capsys.readouterr().out
    assert f"in {tmp_path / name}" in out, out
    assert f"({checker} reads {name}" in out
    text = (tmp_path / name).read_text()
    # The team's own lines are all still there, in their order, comments included.
    lines = iter(text.splitlines())
    assert all(line in lines for line in original.splitlines()), text
    assert (tmp_path / "pyproject.toml").read_text() == PYPROJECT
    # A second init changes nothing; doctor finds the settings where the checker reads them.
    assert main(args) == EXIT_OK
    assert (tmp_path / name).read_text() == text
    assert "already set" in capsys.readouterr().out
    assert main(["doctor", "--project", str(tmp_path), "--checker", checker]) == EXIT_OK


def test_zuban_reads_tool_mypy_before_mypy_ini(tmp_path: Path) -> None:
    """zuban, unlike mypy, takes pyproject.toml's [tool.mypy] before a mypy.ini."""
    _installed("zuban")
    pyproject = PYPROJECT + "\n[tool.mypy]\nwarn_unused_configs = true\n"
    (tmp_path / "pyproject.toml").write_text(pyproject)
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n")
    (tmp_path / "app.py").write_text(APP)
    args = ["init", "--project", str(tmp_path), "--checker", "zuban", "--python", sys.executable]
    assert main(args) == EXIT_OK
    assert (tmp_path / "mypy.ini").read_text() == "[mypy]\nstrict = True\n"
    assert "stubs/zuban" in (tmp_path / "pyproject.toml").read_text()
    assert INJECTION in _plain("zuban", tmp_path)


def test_init_refuses_pyright_and_basedpyright_sharing_pyrightconfig(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright", "basedpyright")
    (tmp_path / "pyrightconfig.json").write_text("{}\n")
    args = ["init", "--project", str(tmp_path), "--checker", "pyright"]
    assert main([*args, "--checker", "basedpyright"]) == EXIT_ERROR
    assert "pyright and basedpyright both read pyrightconfig.json" in capsys.readouterr().err
    assert (tmp_path / "pyrightconfig.json").read_text() == "{}\n"
    assert not (tmp_path / ".typing-literalstring").exists()


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("pyrightconfig.json", '{"include": [".",]', '"stubPath": ".typing-literalstring/stubs/'),
        ("mypy.ini", "[mypy]\nstrict = True\nstrict = False\n", "[mypy]\nmypy_path = "),
        ("mypy.ini", "[mypy]\nplugins = caf\xe9\n", "plugins = typing_literalstring.mypy"),
    ],
)
def test_init_refuses_a_file_it_cannot_edit_and_prints_what_to_add(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, says: str
) -> None:
    _installed("pyright", "mypy")
    (tmp_path / name).write_bytes(text.encode("latin-1"))
    checker = "pyright" if name.endswith(".json") else "mypy"
    assert main(["init", "--project", str(tmp_path), "--checker", checker]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert f"Nothing was written. {tmp_path / name} is the file" in err, err
    assert says in err, err
    assert (tmp_path / name).read_bytes() == text.encode("latin-1")
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize(
    ("checker", "name", "text", "table"),
    [
        ("pyright", "pyrightconfig.json", "{}\n", '[tool.pyright]\nstubPath = ".typing-'),
        ("mypy", "mypy.ini", "[mypy]\n", 'plugins = ["typing_literalstring.mypy"]'),
        ("ty", "ty.toml", "", '[tool.ty.environment]\nextra-paths = [".typing-'),
    ],
)
def test_doctor_fails_when_our_settings_are_in_a_file_the_checker_does_not_read(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    checker: str,
    name: str,
    text: str,
    table: str,
) -> None:
    """An init of before this change, then the team adds pyrightconfig.json (or mypy.ini):
    the settings in pyproject.toml load nothing and the checker's own runs pass."""
    _installed(checker)
    (tmp_path / "app.py").write_text(APP)
    assert main(["init", "--project", str(tmp_path), "--checker", checker]) == EXIT_OK
    assert table in (tmp_path / "pyproject.toml").read_text()
    (tmp_path / name).write_text(text)
    capsys.readouterr()
    assert main(["doctor", "--project", str(tmp_path), "--checker", checker]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert f"pyproject.toml points {checker} at .typing-literalstring/stubs/{checker}" in err
    assert f"but {checker} reads {name}" in err
    assert f"run `typing-literalstring init --checker {checker}`: it writes" in err
    # init moves nothing by itself, but writes them where they are read; doctor is content.
    assert main(["init", "--project", str(tmp_path), "--checker", checker]) == EXIT_OK
    if name.endswith(".json"):
        assert json.loads((tmp_path / name).read_text())["stubPath"].endswith(checker)
    assert main(["doctor", "--project", str(tmp_path), "--checker", checker]) == EXIT_OK


def test_doctor_fails_when_an_older_inits_tool_mypy_hides_the_teams_setup_cfg(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before issue 43, init created [tool.mypy] beside a setup.cfg [mypy]: mypy then reads
    pyproject.toml alone, and every setting of the team's (databases 0.9.0: its `exclude`) is
    lost.  Made here as that init made it: init first, the team's setup.cfg after."""
    _installed("mypy")
    (tmp_path / "app.py").write_text(APP)
    assert main(["init", "--project", str(tmp_path), "--checker", "mypy"]) == EXIT_OK
    (tmp_path / "setup.cfg").write_text("[mypy]\nexclude = build/\n")
    capsys.readouterr()
    assert main(["doctor", "--project", str(tmp_path), "--checker", "mypy"]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert "pyproject.toml's [tool.mypy] holds only our settings for mypy, and makes mypy " in err
    assert "ignore setup.cfg, which holds the team's [mypy] settings" in err


def test_writing_pyrightconfig_and_mypy_ini_trips_no_checker(tmp_path: Path) -> None:
    """Issue 29's promise, for the files of issue 43: each of the six checkers' own runs
    report the same before and after init (pyrefly, with no configuration of its own, imports
    those two files)."""
    from tests.test_init_tools import APP as FLASK_APP

    _installed("pyright", "mypy", "ty")
    if not _has("flask", "jinja2"):
        pytest.skip("Flask is not installed (the test extras install it)")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "app.py").write_text(FLASK_APP)
    (tmp_path / "pyrightconfig.json").write_text(PYRIGHTCONFIG)
    (tmp_path / "mypy.ini").write_text("[mypy]\nwarn_unused_configs = True\n")
    present = [name for name in DEFAULT_RUNS if CHECKERS[name].is_installed()]
    before = {name: _diagnostics(name, tmp_path) for name in present}
    args = ["init", "--project", str(tmp_path), "--python", sys.executable]
    assert main([*args, "--checker", "pyright", "--checker", "mypy", "--checker", "ty"]) == 0
    assert "stubPath" in (tmp_path / "pyrightconfig.json").read_text()
    assert "typing_literalstring.mypy" in (tmp_path / "mypy.ini").read_text()
    for name in present:
        assert _diagnostics(name, tmp_path) == before[name], name
