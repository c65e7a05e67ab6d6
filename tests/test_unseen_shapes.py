"""The tool's mistakes found on projects it was not tuned on (issue 44's "Done when",
benchmarks/unseen/), each in the shape it had there, generalised from its cause."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.checking import check_project, marked_rules

# lektor 3.3.14's sourcesearch.find_files: a triple-quoted query formatted with one `?` per
# value, in a call spread over lines that the probed copy cannot ask about.  The checker's own
# error at it made the finding; the syntax shows the text literal whatever the input.
SPREAD_OVER_LINES = '''\
import sqlite3
from typing import List


def find(con: sqlite3.Connection, languages: List[str], alts: List[str], limit: int) -> None:
    cur = con.cursor()
    cur.execute(
        """
        select path from source_info
         where lang in (%s)
           and alt in (%s)
         limit ?
    """
        % (
            ", ".join(["?"] * len(languages)),
            ", ".join(["?"] * len(alts)),
        ),
        [*languages, *alts, limit],
    )
    cur.execute(  # LS101
        """
        select path from source_info where lang = '%s'
    """
        % languages[0],
    )
'''


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_call_spread_over_lines_is_proven_when_its_text_is_literal_in_fact(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": SPREAD_OVER_LINES}, capsys)
    assert {(f["line"], f["rule"]) for f in document["findings"]} == marked_rules(SPREAD_OVER_LINES)
    assert document["sink_calls"]["proven"] == 1


# lektor 3.3.14's publisher: Command builds a dict of its own (cwd, env, stdout...) and passes
# it as `**kwargs` to portable_popen, whose `**kwargs` go on to subprocess.Popen.  The shell
# could come only through that dict, which never holds it: Command runs no shell.
LOCAL_MAPPING = """\
import subprocess


def portable_popen(cmd, *args, **kwargs):
    return subprocess.Popen(cmd, *args, **kwargs)


class Command:
    def __init__(self, argline, cwd=None, env=None, capture=True):
        kwargs = {"cwd": cwd, "env": env}
        if capture:
            kwargs["stdout"] = subprocess.PIPE
        self._cmd = portable_popen(argline, **kwargs)


class Shell:
    def __init__(self, argline):
        options = {"cwd": None}
        options["shell"] = True
        portable_popen(argline, **options)


def publish(target: str, path: str) -> None:
    Command(["rsync", target, path])
    Command(f"rsync {target} {path}")
    portable_popen(f"ls {target}", shell=True)  # LS201
    Shell(f"rsync {target}")  # LS201
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_mapping_of_the_functions_own_gives_no_shell_to_a_wrapper(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": LOCAL_MAPPING}, capsys)
    assert {(f["line"], f["rule"]) for f in document["findings"]} == marked_rules(LOCAL_MAPPING)


@pytest.mark.parametrize(
    ("body", "lacks"),
    [
        ('options = {"cwd": cwd}\n    options["env"] = {}\n    run(cmd, **options)', True),
        (
            "options = dict(cwd=cwd)\n    if options.get('cwd'):\n        del options['cwd']\n"
            "    run(cmd, **options)",
            True,
        ),
        ('options = {"cwd": cwd, "shell": True}\n    run(cmd, **options)', False),
        # Annotated, as typed code writes it (alembic's `kw: dict[str, Any] = {}`).
        ('options: dict = {"cwd": cwd}\n    options["env"] = {}\n    run(cmd, **options)', True),
        ('options: dict\n    options = {"cwd": cwd}\n    run(cmd, **options)', True),
        ('options: dict = {"cwd": cwd, "shell": True}\n    run(cmd, **options)', False),
        ("options: dict = dict(extra)\n    run(cmd, **options)", False),
        ('options = {"cwd": cwd}\n    options["shell"] = True\n    run(cmd, **options)', False),
        ('options = {"cwd": cwd}\n    options[key] = True\n    run(cmd, **options)', False),
        ('options = {"cwd": cwd}\n    options.update(extra)\n    run(cmd, **options)', False),
        ('options = {"cwd": cwd}\n    fill(options)\n    run(cmd, **options)', False),
        ('options = {"cwd": cwd, **extra}\n    run(cmd, **options)', False),
        ("options = dict(extra)\n    run(cmd, **options)", False),
        ('options = {"cwd": cwd}\n    options |= extra\n    run(cmd, **options)', False),
        ("run(cmd, **extra)", False),  # a parameter: its caller's
        ("run(cmd, **OPTIONS)", False),  # a module's: any importer may change it
    ],
)
def test_a_mapping_of_the_functions_own_lacks_a_keyword_only_when_nothing_gives_it(
    body: str, lacks: bool
) -> None:
    from typing_literalstring.analysis.wrapper_calls import lacks_keyword

    function = ast.parse(f"def f(cmd, cwd, key, extra, **more):\n    {body}\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    call = next(
        n
        for n in ast.walk(function)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "run"
    )
    assert lacks_keyword(call, "shell", function) is lacks


# huey 2.5.3's tests: `huey2 = MemoryHuey(...)`, a class of the project, then
# `huey2.execute(huey2.dequeue())`, which runs a task: a method of the project found on the
# class the name was bound to, not an SQL sink by its name.
INSTANCE_OF_THE_PROJECT = """\
import sqlite3


class Queue:
    def execute(self, task, timestamp=None):
        return task


class MemoryQueue(Queue):
    pass


class Connection(sqlite3.Connection):
    pass


def run(path, task) -> None:
    queue = MemoryQueue()
    queue.execute(task)
    conn = sqlite3.connect(path)
    conn.execute(task)  # LS903
    twice = MemoryQueue()
    twice = sqlite3.connect(path)
    twice.execute(task)  # LS903
    derived = Connection(path)
    derived.execute(task)  # LS903
    caught = MemoryQueue()
    try:
        pass
    except OSError as caught:
        caught.execute(task)  # LS903
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_method_of_a_project_class_bound_to_a_name_is_no_sink(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": INSTANCE_OF_THE_PROJECT}, capsys)
    assert {(f["line"], f["rule"]) for f in document["findings"]} == marked_rules(
        INSTANCE_OF_THE_PROJECT
    )
