"""Sinks called through a name the module assigns them to (analysis/sink_aliases.py).

GitPython 3.1.43 starts git with ``safer_popen(command, shell=shell, ...)`` after
``safer_popen = Popen`` (outside Windows): those calls were no sink call at all, whatever
their command.  The assigned name makes a candidate; the checker's answer about the callee
decides, so a name assigned the project's own class of a sink's name is no sink call.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checking import check_project, found_rules, marked_rules
from typing_literalstring.analysis.sink_aliases import ASSIGNED_SINK, Assigned, assigned_sinks
from typing_literalstring.specs.sinks import sink_names

APP = """\
import sqlite3
import sys
from subprocess import Popen

if sys.platform == "win32":
    def _popen_on_windows(*args: object, **kwargs: object) -> None: ...
    safer_popen = _popen_on_windows
else:
    safer_popen = Popen


def connect() -> sqlite3.Connection:
    return sqlite3.connect(":memory:")


run_sql = connect().execute


def go(command: str, table: str, shell: bool) -> None:
    safer_popen(command, shell=True)  # LS201
    safer_popen(f"git log {command}", shell=shell)  # LS201
    safer_popen("git status", shell=True)
    run_sql(f"DELETE FROM {table}")  # LS101
    run_sql("DELETE FROM t")
"""

OWN = """\
class Popen:
    def __init__(self, command: str, shell: bool = False) -> None:
        self.command = command


start = Popen


def go(command: str) -> None:
    start(command, shell=True)
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_sink_called_by_an_assigned_name_is_judged(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": APP}, capsys)
    assert found_rules(document) == marked_rules(APP)
    calls = document["sink_calls"]
    assert (calls["total"], calls["proven"], calls["unverified"]) == (5, 2, 0)


DECLARED = """\
import sys
from subprocess import Popen
from typing import Callable

safer_popen: Callable[..., Popen]

if sys.platform == "win32":
    def _popen_on_windows(*args: object, **kwargs: object) -> Popen: ...
    safer_popen = _popen_on_windows
else:
    safer_popen = Popen


def go(command: str, shell: bool) -> None:
    safer_popen(command, shell=shell)
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_sink_behind_a_declared_callable_is_unverified_not_dropped(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GitPython's cmd.py: the declaration takes any command, so no checker can check the call;
    it is counted unverified, "the callee takes str", never dropped nor proven."""
    _, document = check_project(name, tmp_path, {"app.py": DECLARED}, capsys)
    calls = document["sink_calls"]
    assert (calls["total"], calls["proven"], calls["unverified"]) == (1, 0, 1)
    assert calls["unverified_by_reason"] == {"callee-str": 1}


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_name_assigned_the_projects_own_class_of_a_sinks_name_is_no_sink(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": OWN}, capsys)
    assert document["findings"] == []
    assert document["sink_calls"]["total"] == 0


def test_the_assignments_found() -> None:
    import ast

    tree = ast.parse(
        "import subprocess\n"
        "if x:\n    p = subprocess.Popen\nelse:\n    p = other\n"
        "try:\n    q = subprocess.run\nexcept ImportError:\n    q = subprocess.call\n"
        "def f():\n    local = subprocess.Popen\n"
        "run = subprocess.run\n"
        "r = s = subprocess.Popen\n"
    )
    names = sink_names({"subprocess"})
    # q is two sinks (no one of them); run is judged by its own name; a function's names and
    # chained assignments are not the module's aliases.
    assert assigned_sinks(tree, names, {"subprocess": "subprocess"}) == {
        "p": Assigned("Popen", "p = subprocess.Popen", certain=True)
    }
    own = ast.parse("class Popen: ...\nstart = Popen\nrun_sql = conn.execute\n")
    assert assigned_sinks(own, names, {"Popen": "app.Popen"}) == {
        "start": Assigned("Popen", "start = Popen", certain=False),
        "run_sql": Assigned("execute", "run_sql = conn.execute", certain=False),
    }
    assert ASSIGNED_SINK.search("    safer_popen = Popen\n")
    assert ASSIGNED_SINK.search("run_sql = conn.execute  # the one connection\n")
    assert not ASSIGNED_SINK.search("x = Popen(cmd)\n")
