"""A killed run leaves nothing behind (issue 43 item 11): after SIGKILL of `check`, which no
handler can catch, pyright's node used to keep running with its temporary folder.  The
checkers now die with the command, and the next run removes the temporary folders of dead
runs, never those of live ones."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.installed import installed_checker
from tests.processes import (
    INJECTION,
    alive,
    busy_project,
    command_script,
    descendants,
    leftovers,
    needs_proc,
    program,
)
from typing_literalstring.core import workfolders
from typing_literalstring.core.signals import PROGRAM


def _check(tmp_path: Path, cache_dir: Path, project: Path, tmpdir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*command_script(tmp_path), "check", "--cache-dir", str(cache_dir), str(project)],
        env={**os.environ, "TMPDIR": str(tmpdir)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own group: the test kills the command alone, not it
    )


@needs_proc
def test_sigkill_of_check_kills_pyright_and_the_next_run_removes_its_folder(
    tmp_path: Path, cache_dir: Path
) -> None:
    installed_checker("pyright")
    project = tmp_path / "project"
    busy_project(project)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    proc = _check(tmp_path, cache_dir, project, tmpdir)
    seen: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            seen.update(descendants(proc.pid))
            if any(program(p) == "node" for p in seen):
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the command ended before node started"
        seen.update(descendants(proc.pid))
        assert any(program(p) == "node" for p in seen)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(p, s) for p, s in seen.items()):
            time.sleep(0.02)
        assert [program(p) for p, s in seen.items() if alive(p, s)] == []
    finally:
        for pid, start in seen.items():
            if alive(pid, start):
                os.kill(pid, signal.SIGKILL)
    (dead,) = leftovers(tmpdir)  # what no one could remove: the killed run's folder
    assert dead.startswith(f"{PROGRAM}-")
    small = tmp_path / "small"
    small.mkdir()
    (small / "app.py").write_text(INJECTION, encoding="utf-8")
    again = _check(tmp_path, cache_dir, small / "app.py", tmpdir)
    assert again.wait(timeout=120) == 1
    assert leftovers(tmpdir) == []


@pytest.mark.skipif(os.name != "posix", reason="flock")
def test_only_the_folders_of_dead_runs_are_removed(tmp_path: Path) -> None:
    """A live run's folder (its lock held), a folder without a lock (an older version's, or
    one being made), another program's folder and a link are left alone."""
    parent = tmp_path / "tmp"
    parent.mkdir()
    prefix = f"{PROGRAM}-"
    dead = parent / f"{prefix}dead"
    dead.mkdir()
    (dead / workfolders.LOCK).write_text("", encoding="utf-8")
    (dead / "pyright-123-abc").mkdir()
    unlocked = parent / f"{prefix}older"
    unlocked.mkdir()
    other = parent / "pyright-456-def"
    other.mkdir()
    (parent / f"{prefix}link").symlink_to(dead)
    # A live run: another process that made its folder as `check` does, and holds its lock.
    code = (
        "import sys, tempfile; from typing_literalstring.core import workfolders; "
        f"tempfile.tempdir = {str(parent)!r}; print(workfolders.make({prefix!r}), flush=True); "
        "sys.stdin.read()"
    )
    live = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert live.stdout is not None
        held = Path(live.stdout.readline().strip())
        removed = workfolders.remove_dead(str(parent), prefix)
        assert removed == [str(dead)]
        assert sorted(p.name for p in parent.iterdir()) == sorted(
            [held.name, unlocked.name, other.name, f"{prefix}link"]
        )
    finally:
        live.communicate("")
    # Its run over, the lock is released: its folder is a dead run's now.
    assert workfolders.remove_dead(str(parent), prefix) == [str(held)]
