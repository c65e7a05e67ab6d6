"""Starting a child process (a checker, the project's interpreter): found on absolute PATH
entries only, with an environment independent of the folder it runs in and of the user's
language and colour settings, killed with every process it started if we stop, even by
SIGKILL (``_Watchdog``)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Callable, Mapping, Sequence

from typing_literalstring.core.signals import deferred_signals, raise_if_interrupted

# The highest signal number on the platforms we run on (Linux's SIGRTMAX).
HIGHEST_SIGNAL = 64


def which(name: str) -> str | None:
    """``name`` in a folder of PATH, like ``shutil.which`` but only in absolute folders.

    An empty or relative entry of PATH (``.``, ``bin``) names a folder under the working one,
    which may be the checked project, and so does the current folder Windows searches first:
    a program there belongs to the project, not to the user.
    """
    suffixes = [""]
    if sys.platform == "win32":
        suffixes = [s for s in os.environ.get("PATHEXT", ".COM;.EXE;.BAT;.CMD").split(";") if s]
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not folder or not os.path.isabs(folder):
            continue
        for suffix in suffixes:
            candidate = os.path.join(folder, name + suffix)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    return None


# What the checkers' output must not depend on: the user's language and colour settings.
# Measured (docs/security.md "The checker's environment"): pyright and basedpyright word their
# messages in the language of VSCODE_NLS_CONFIG, else of the first set of LC_ALL, LC_MESSAGES,
# LANG, LANGUAGE; FORCE_COLOR (ty, mypy), MYPY_FORCE_COLOR (mypy) and CLICOLOR_FORCE (ty, zuban)
# turn on colour codes in piped output, even with NO_COLOR set (zuban).
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_MESSAGES", "VSCODE_NLS_CONFIG")
COLOUR_FORCING_VARIABLES = ("FORCE_COLOR", "CLICOLOR_FORCE", "MYPY_FORCE_COLOR")
FIXED_VARIABLES = {
    # C.UTF-8: English messages, UTF-8 text, and present on every glibc since 2.35 (built in)
    # and on musl; where it is missing, the C locale it falls back on is English too, and
    # Python then still writes UTF-8 (PEP 538, PEP 540).  LC_ALL wins over every LC_* and LANG
    # in the C library, and over LANG and LANGUAGE in pyright's own lookup.
    "LC_ALL": "C.UTF-8",
    "LANG": "C.UTF-8",
    "NO_COLOR": "1",
    "TERM": "dumb",
}


def child_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """The environment of a checker: ours, made independent of the folder it runs in and of
    the user's language and colour settings, so that its output reads the same everywhere."""
    env = {**os.environ, **extra}
    for name in (*LANGUAGE_VARIABLES, *COLOUR_FORCING_VARIABLES):
        env.pop(name, None)
    env.update(FIXED_VARIABLES)
    # Python 3.11 and newer put no working folder first on sys.path of a child interpreter:
    # the ones the checkers start to ask for its search paths (pyright, basedpyright,
    # pyrefly, mypy's pyinfo for another interpreter) run from a folder that may be the
    # checked project, whose json.py or os.py would otherwise run.
    env["PYTHONSAFEPATH"] = "1"
    # The checker's own temporary files (pyright's pyright-<pid>-* folder, which a killed node
    # cannot remove) go where ours do: in the command's private folder (entry.main), removed
    # with it whatever stops the run.
    for name in ("TMPDIR", "TEMP", "TMP"):
        env[name] = tempfile.gettempdir()
    # Relative and empty entries name folders under the working one, which may be the
    # project: a `node` or module there is the project's code.  Absolute entries stay.
    for name in ("PATH", "PYTHONPATH"):
        if name in env:
            kept = [p for p in env[name].split(os.pathsep) if p and os.path.isabs(p)]
            if kept:
                env[name] = os.pathsep.join(kept)
            else:
                del env[name]
    return env


def run_process(
    command: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    started: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run a checker to completion and collect its output; on any exception (an interrupt
    above all) kill it with every process it started, and wait for them.

    The checker runs in a session of its own (POSIX), so its process group holds it and its
    children: the `pyright` command is a Python script that starts node, and killing the
    script alone would leave node running.  A terminal's Ctrl-C then reaches us alone, and we
    stop the checker.  ``started`` is called once the process runs: work that would compete
    with starting it (a thread holding the interpreter's lock) may begin.
    """
    raise_if_interrupted()
    process: subprocess.Popen[str] | None = None
    try:
        # Held until Popen returns: an interrupt inside it would leave a process no one knows.
        with deferred_signals():
            _WATCHDOG.start()
            process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                # What the checkers write under LC_ALL=C.UTF-8 (child_environment), whatever
                # our own locale's encoding; Windows has no such setting: its own code page.
                encoding="utf-8" if os.name == "posix" else None,
                errors="replace",
                start_new_session=os.name == "posix",
            )
            _WATCHDOG.tell(f"+{process.pid}")
        if started is not None:
            started()
        stdout, stderr = process.communicate()
    except BaseException:
        if process is not None:
            _kill_group(process)
            _WATCHDOG.tell(f"-{process.pid}")
        raise
    _WATCHDOG.tell(f"-{process.pid}")
    # A signal whose exception a finaliser swallowed still stops the run.
    raise_if_interrupted()
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Kill ``process`` and its process group, and reap it (it cannot ignore SIGKILL)."""
    with deferred_signals():  # a second interrupt must not leave the group half-killed
        if hasattr(os, "killpg"):
            with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
                os.killpg(process.pid, signal.SIGKILL)
        else:  # Windows: no process groups to kill; the child itself
            process.kill()
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()
        process.wait()


# The watchdog's program: it reads "+PGID" and "-PGID" lines, and when its input ends (our
# process has ended, however: the pipe's last writer is gone) kills the groups still listed.
_WATCH = """\
import os, signal, sys
groups = set()
for line in sys.stdin.buffer:
    word = line.strip()
    if word[:1] == b"+":
        groups.add(int(word[1:]))
    elif word[:1] == b"-":
        groups.discard(int(word[1:]))
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
"""


class _Watchdog:
    """Kills the checkers' process groups when we die without doing it ourselves (SIGKILL,
    the out-of-memory killer), so that no checker outlives the command that started it.

    Each checker runs in a process group of its own (run_process), holding the processes it
    starts (the `pyright` command is a Python script that starts node).  Linux's
    ``PR_SET_PDEATHSIG`` would reach the script alone, not node; and a process can observe
    the death of another only through something the kernel closes: here, the pipe to a small
    process of ours, in a session of its own (a signal to our process group does not reach
    it), started once per command, with the groups to kill.  POSIX only.
    """

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Started with the first child process, in our own interpreter, isolated."""
        if os.name != "posix" or self._process is not None:
            return
        with self._lock:
            if self._process is not None:
                return
            try:
                self._process = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-c", _WATCH],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    cwd="/",
                    start_new_session=True,
                )
            except OSError:  # no watchdog: the checkers still die with an interrupt
                self._process = None

    def tell(self, line: str) -> None:
        with self._lock:
            if self._process is None or self._process.stdin is None:
                return
            try:
                self._process.stdin.write(line.encode("ascii") + b"\n")
                self._process.stdin.flush()
            except OSError:  # it was killed: a new one at the next start
                self._process = None


_WATCHDOG = _Watchdog()
