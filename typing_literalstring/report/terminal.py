"""What ``check`` shows a person at a terminal: colour, and the progress of long steps.

Colour follows no-color.org and force-color.org: ``NO_COLOR`` (set and not empty) turns it off,
``FORCE_COLOR`` (set and not empty) turns it on even in a pipe (CI logs render it), and
otherwise it is on only for a terminal that is not ``TERM=dumb``.  NO_COLOR wins when both are
set, as CPython's own colour does: turning colour off is the safer of the two wishes.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from typing import Callable, Mapping, TextIO

PREFIX = "typing-literalstring"
# A step that lasts longer than this shows how long it has run, so a long run does not look
# hung.
_PATIENCE = 1.0

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_RED = "\x1b[31m"
_GREEN = "\x1b[32m"
_YELLOW = "\x1b[33m"
_CYAN = "\x1b[36m"
_DIM = "\x1b[2m"


def colour_wanted(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour what goes to ``stream``."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", ""):
        return False
    if env.get("FORCE_COLOR", ""):
        return True
    if env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def can_redraw(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is a terminal that can rewrite its last line (for progress)."""
    env = os.environ if environ is None else environ
    try:
        return stream.isatty() and env.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


# The parts of a report line that colour picks out.  They run on text already made printable
# (output.printable), which holds no escape of its own for these to be confused with.
_FINDING = re.compile(r"^(?P<where>\S.*?:\d+:\d+:) (?P<rule>LS\d{3}) (?P<name>[a-z-]+):")
_LABEL = re.compile(r"^(?P<indent>    )(?P<label>fix:|through:)")
_LEVEL = re.compile(r"^(?P<level>error|warning):")
_SUMMARY = re.compile(r"^\d+ findings? (?:\(|with )")


def coloured(text: str) -> str:
    """The text report ``text`` with ANSI colour: places bold, rule codes red, fixes green,
    warnings yellow, errors red, the summary line bold."""
    out: list[str] = []
    for line in text.split("\n"):
        if m := _FINDING.match(line):
            line = (
                f"{_BOLD}{m['where']}{_RESET} {_BOLD}{_RED}{m['rule']}{_RESET} "
                f"{_CYAN}{m['name']}{_RESET}:{line[m.end() :]}"
            )
        elif m := _LABEL.match(line):
            colour = _GREEN if m["label"] == "fix:" else _DIM
            line = f"{m['indent']}{colour}{m['label']}{_RESET}{line[m.end() :]}"
        elif m := _LEVEL.match(line):
            colour = _RED if m["level"] == "error" else _YELLOW
            line = f"{_BOLD}{colour}{m['level']}{_RESET}:{line[m.end() :]}"
        elif _SUMMARY.match(line):
            line = f"{_BOLD}{line}{_RESET}"
        out.append(line)
    return "\n".join(out)


class Progress:
    """Says each step of a check on ``stream`` (stderr).

    On a terminal (``live``) a step's line is rewritten in place once it has lasted a second,
    with the counts the step reports (``count``) and its time so far: "running pyright on 40
    files (read 12/40)... 3 s".  Elsewhere a step is a line of its own, said only when asked
    (``verbose``), and a step that took longer than a second, or counted, says how long and
    how far it went when it ends."""

    def __init__(self, stream: TextIO, *, live: bool, verbose: bool) -> None:
        self._stream = stream
        self._live = live
        self._said = live or verbose
        self._lock = threading.Lock()
        self._step: str | None = None
        self._counts: Callable[[], str] | None = None
        self._started = 0.0
        self._drawn = False  # a live line is on the screen, unfinished
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def __call__(self, message: str) -> None:
        """A new step begins: ``message`` says what it does."""
        with self._lock:
            self._end_step()
            self._step, self._counts, self._started = message, None, time.monotonic()
            if not self._said:
                return
            if self._live:
                self._draw()
                self._start_ticker()
            else:
                self._stream.write(f"{PREFIX}: {message}...\n")
                self._stream.flush()

    def count(self, done: int, total: int, what: str) -> None:
        """How far the current step is: ``done`` of ``total`` ``what`` ("read 12/40")."""
        said = f"{what} {done}/{total}"
        self.watch(lambda: said)

    def watch(self, counts: Callable[[], str]) -> None:
        """How to tell how far the current step is, asked each time its line is drawn (from
        another thread: ``counts`` only reads)."""
        with self._lock:
            self._counts = counts

    def _said_counts(self) -> str:
        said = self._counts() if self._counts is not None else ""
        return f" ({said})" if said else ""

    def close(self) -> None:
        """The check is over: the last step's line is finished."""
        with self._lock:
            self._end_step()
            self._step = None
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()

    def _elapsed(self) -> float:
        return time.monotonic() - self._started

    def _draw(self) -> None:
        elapsed = self._elapsed()
        shown = f"{self._said_counts()}...{f' {elapsed:.0f} s' if elapsed >= _PATIENCE else ''}"
        # A line wider than the terminal wraps, and the carriage return would then redraw only
        # its last row: the step's words give way, its counts and time stay.
        room = shutil.get_terminal_size().columns - 1 - len(PREFIX) - 2 - len(shown)
        step = self._step or ""
        if len(step) > room:
            step = step[: max(room - 3, 0)] + "..."
        self._stream.write(f"\r\x1b[K{PREFIX}: {step}{shown}")
        self._stream.flush()
        self._drawn = True

    def _end_step(self) -> None:
        if self._step is None or not self._said:
            return
        elapsed = self._elapsed()
        if self._live:
            if self._drawn:
                self._draw()
                self._stream.write("\n")
                self._drawn = False
        elif elapsed >= _PATIENCE or self._counts is not None:
            counts = self._said_counts()
            self._stream.write(f"{PREFIX}: {self._step}{counts}: {elapsed:.1f} s\n")
        self._stream.flush()

    def _start_ticker(self) -> None:
        if self._ticker is not None:
            return

        def tick() -> None:
            while not self._stop.wait(_PATIENCE):
                with self._lock:
                    if self._step is not None and self._drawn:
                        self._draw()

        # A daemon: an interrupted check must not wait for it to notice.
        self._ticker = threading.Thread(target=tick, name="progress", daemon=True)
        self._ticker.start()
