"""What the tests of the processes `check` starts share: the command as installed, the
process tree read from /proc, a fake pyright."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Iterator

import pytest

from typing_literalstring.checkers import Pyright
from typing_literalstring.commands.cli import main

REPO = Path(__file__).resolve().parent.parent
PROC = Path("/proc")
INJECTION = "import subprocess\n\n\ndef f(x: str) -> None:\n    subprocess.run(x, shell=True)\n"


def command_script(tmp_path: Path, before: str = "") -> list[str]:
    """The `typing-literalstring` console script as pyproject.toml declares it, written the way
    an installer writes it (its own folder, not the working one, first on sys.path), with
    ``before`` run first."""
    declared = re.search(
        r'^typing-literalstring = "(?P<module>[\w.]+):(?P<function>\w+)"$',
        (REPO / "pyproject.toml").read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    assert declared is not None
    script = tmp_path / "bin" / "typing-literalstring"
    script.parent.mkdir(exist_ok=True)
    script.write_text(
        f"import sys\n{before}from {declared['module']} import {declared['function']}\n"
        f"sys.exit({declared['function']}())\n",
        encoding="utf-8",
    )
    return [sys.executable, str(script)]


def stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first); None: gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text(encoding="utf-8")
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def processes() -> Iterator[tuple[int, list[str]]]:
    for entry in os.listdir(PROC):
        if entry.isdigit():
            fields = stat_fields(int(entry))
            if fields is not None:
                yield int(entry), fields


def descendants(root: int) -> dict[int, str]:
    """Each living descendant of ``root``: pid -> start time (tells a reused pid apart)."""
    children: dict[int, list[tuple[int, str]]] = {}
    for pid, fields in processes():
        children.setdefault(int(fields[1]), []).append((pid, fields[19]))
    found: dict[int, str] = {}
    stack = [root]
    while stack:
        for pid, start in children.get(stack.pop(), []):
            found[pid] = start
            stack.append(pid)
    return found


def alive(pid: int, start: str) -> bool:
    fields = stat_fields(pid)
    return fields is not None and fields[19] == start and fields[0] not in ("Z", "X")


def group_members(pgid: int) -> list[int]:
    """The living members of process group ``pgid``."""
    return [pid for pid, fields in processes() if int(fields[2]) == pgid and fields[0] not in "ZX"]


def program(pid: int) -> str:
    """The name of the program a process runs (node names its main thread, so not comm)."""
    try:
        argv0 = (PROC / str(pid) / "cmdline").read_bytes().split(b"\0", 1)[0]
    except OSError:
        return ""
    return os.path.basename(argv0.decode(errors="replace"))


def catches(pid: int, signum: int) -> bool:
    """Whether the process has a handler for ``signum`` (SigCgt of /proc/<pid>/status)."""
    try:
        status = (PROC / str(pid) / "status").read_text(encoding="utf-8")
    except OSError:
        return False
    caught = re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.MULTILINE)
    return caught is not None and bool(int(caught[1], 16) >> (signum - 1) & 1)


def leftovers(tmpdir: Path) -> list[str]:
    """What the run left in its TMPDIR: ours, and the checker's (pyright-<pid>-*)."""
    return sorted(p.name for p in tmpdir.iterdir())


needs_proc = pytest.mark.skipif(
    os.name != "posix" or not (PROC / "self" / "stat").is_file(), reason="needs POSIX and /proc"
)


def fake_pyright(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: str) -> None:
    """pyright replaced by a script that answers --version as pyright does and runs ``run``
    for a check."""
    fake = tmp_path / "fake_pyright.py"
    fake.write_text(
        "import json, os, signal, sys\n"
        "if '--version' in sys.argv:\n"
        "    print('pyright 1.1.414')\n"
        "    sys.exit(0)\n" + run,
        encoding="utf-8",
    )

    def executable(self: Pyright) -> list[str]:
        return [sys.executable, str(fake)]

    monkeypatch.setattr(Pyright, "executable", executable)


def check_app(
    tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    app = tmp_path / "app.py"
    app.write_text(INJECTION, encoding="utf-8")
    status = main(["check", "--checker", "pyright", "--cache-dir", str(cache_dir), str(app)])
    return status, capsys.readouterr().err


def busy_project(project: Path) -> None:
    """A project with ``INJECTION`` in app.py and work that keeps pyright busy for seconds
    (when it is not killed): an orphaned node would outlive the command by that long."""
    project.mkdir()
    (project / "app.py").write_text(INJECTION, encoding="utf-8")
    functions = "".join(
        f"def f{n}(x: int) -> str:\n    return str([x * k for k in range({n})])\n\n\n"
        for n in range(60)
    )
    for n in range(25):
        (project / f"m{n}.py").write_text(functions, encoding="utf-8")
