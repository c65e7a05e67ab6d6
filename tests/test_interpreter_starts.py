"""A committed environment runs at most once per check (issue 43 item 10): starting a
``.venv`` of the checkout runs its ``bin/python`` (any program) and its ``.pth`` files, and
`check` used to start it three times (pyright twice, and once for the third-party tightening).
It is now started once, and the checkers that would start it again are answered by a stand-in
that gives them, word for word, what the interpreter said."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.installed import installed_checker
from typing_literalstring.checkers import COMMAND_CHECKERS
from typing_literalstring.commands import EXIT_FINDINGS
from typing_literalstring.commands.cli import main
from typing_literalstring.core import interpreter
from typing_literalstring.core.processes import child_environment

INJECTION = "import subprocess\n\n\ndef f(x: str) -> None:\n    subprocess.run(x, shell=True)\n"
posix_only = pytest.mark.skipif(os.name != "posix", reason="a shell script as the interpreter")


def _logging_environment(root: Path, log: Path) -> Path:
    """A virtual environment in ``root/.venv`` whose ``bin/python`` is a script, as a checkout
    may commit one, that logs each start and runs the real interpreter."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")],
        check=True,
        capture_output=True,
    )
    bin_folder = root / ".venv" / "bin"
    python = bin_folder / "python"
    real = bin_folder / "real-python"
    real.symlink_to(os.path.realpath(python))
    python.unlink()
    python.write_text(
        # One line per start: the first argument's first line.
        f'#!/bin/sh\necho "$1" | head -n 1 >> {log}\nexec "$(dirname "$0")/real-python" "$@"\n',
        encoding="utf-8",
    )
    python.chmod(0o755)
    return python


def _starts(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


@posix_only
@pytest.mark.parametrize("name", sorted(COMMAND_CHECKERS))
def test_the_projects_interpreter_starts_once_per_check(
    name: str,
    tmp_path: Path,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    installed_checker(name)
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    (project / "app.py").write_text(INJECTION, encoding="utf-8")
    log = tmp_path / "starts.log"
    python = _logging_environment(project, log)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    status = main(["check", "--checker", name, "--cache-dir", str(cache_dir), str(project)])
    out, err = capsys.readouterr()
    assert status == EXIT_FINDINGS, out + err
    assert f"Python: {python} (.venv in the project root)" in out
    assert len(_starts(log)) == 1, _starts(log)


@posix_only
def test_a_python_given_starts_once_too(
    tmp_path: Path,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--python` was started once more, to see that it runs."""
    installed_checker("pyright")
    (tmp_path / "app.py").write_text(INJECTION, encoding="utf-8")
    log = tmp_path / "starts.log"
    python = _logging_environment(tmp_path / "elsewhere", log)
    status = main(
        ["check", "--python", str(python), "--cache-dir", str(cache_dir), str(tmp_path / "app.py")]
    )
    assert status == EXIT_FINDINGS, capsys.readouterr()
    assert len(_starts(log)) == 1, _starts(log)


def _real_answer(python: Path, arguments: list[str], cwd: Path) -> str:
    """What the interpreter itself prints for a checker's question, started as the checker
    starts it (mypy adds PYTHONSAFEPATH=1 itself)."""
    env = {**child_environment({}), "PYTHONSAFEPATH": "1"}
    done = subprocess.run(
        [str(python), *arguments], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


@posix_only
def test_the_stand_in_answers_as_the_interpreter_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each question the stand-in knows gets the interpreter's own answer; any other goes to
    the interpreter.  Its sys.path has a folder from a .pth file, as an editable install
    adds, and one from PYTHONPATH."""
    log = tmp_path / "starts.log"
    python = _logging_environment(tmp_path / "project", log)
    (tmp_path / "from-pth").mkdir()
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    (Path(site) / "editable.pth").write_text(str(tmp_path / "from-pth") + "\n", encoding="utf-8")
    (tmp_path / "on-pythonpath").mkdir()
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "on-pythonpath"))
    asked = interpreter.ask(python)
    program = interpreter.stand_in(asked, tmp_path / "stand-in")
    assert program is not None
    questions = [
        ["-c", interpreter.PYRIGHT_SEARCH_PATHS],
        ["-I", "-c", interpreter.PYRIGHT_VERSION],
    ]
    pyinfo = interpreter.find_pyinfo()
    if pyinfo is not None:
        questions.append([str(pyinfo), "getsearchdirs"])
    project = tmp_path / "project"
    for question in questions:
        before = len(_starts(log))
        answer = _real_answer(program, question, project)
        assert len(_starts(log)) == before  # answered without starting it
        real = _real_answer(python, question, project)
        parse = json.loads if question[0] != str(pyinfo) else ast.literal_eval
        assert parse(answer) == parse(real), question
    searched = json.loads(_real_answer(program, questions[0], project))["path"]
    assert str(tmp_path / "from-pth") in searched
    assert str(tmp_path / "on-pythonpath") in searched
    before = len(_starts(log))
    assert _real_answer(program, ["-c", "print(6 * 7)"], project) == "42\n"
    assert len(_starts(log)) == before + 1  # a question it does not know: the real one


@posix_only
def test_an_interpreter_that_does_not_answer_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "python"
    broken.write_text("#!/bin/sh\necho 'no such module: encodings' >&2\nexit 1\n", "utf-8")
    broken.chmod(0o755)
    (tmp_path / "app.py").write_text(INJECTION, encoding="utf-8")
    status = main(["check", "--python", str(broken), str(tmp_path / "app.py")])
    err = capsys.readouterr().err
    assert status == 2
    assert f"--python {broken} is not a working Python interpreter" in err
    assert "no such module: encodings" in err
