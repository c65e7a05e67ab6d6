"""How the command stops on SIGINT, SIGTERM and SIGHUP.

The handling is installed before the heavy modules are imported (see ``commands.entry``), so an
interrupt at any moment ends the command the same way: one line on stderr, the exit status
128 + the signal's number, no child process and no temporary folder left behind.

A signal raises :class:`Interrupted` in the main thread; ``finally`` blocks then remove work
folders and the checker runner (``core.processes.run_process``) kills the checker's whole
process group.  Later signals are ignored while that clean-up runs, so a second Ctrl-C cannot
cut it short and print a traceback.
"""

from __future__ import annotations

# Only what the package's own import already loaded (contextlib, types, typing) and signal:
# the handlers are installed before anything slower is imported (main()).
import contextlib
import signal
import sys
from types import FrameType, TracebackType
from typing import Any, Callable, Union

PROGRAM = "typing-literalstring"

# The signals that stop the command: Ctrl-C, `kill`/`timeout`, and a closed terminal.  Windows
# has no SIGHUP, and raises SIGTERM only from signal.raise_signal.
STOPPING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Interrupted(KeyboardInterrupt):
    """A stopping signal arrived.  A KeyboardInterrupt, so that code which cleans up on Ctrl-C
    (``subprocess``, ``concurrent.futures``) cleans up on SIGTERM too, and ``except Exception``
    does not swallow it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_Handler = Union[Callable[[int, Union[FrameType, None]], Any], int, None]


class State:
    """The signal handling of this process (signals are handled in the main thread only)."""

    depth = 0  # nested handling_signals(): only the outermost installs and restores
    previous: dict[int, _Handler] = {}  # noqa: RUF012 -- class used as a namespace
    received: int | None = None  # the first stopping signal; later ones are ignored
    reported = False  # its line was printed
    deferring = 0  # inside deferred_signals(): hold the signal until the block ends
    pending: int | None = None  # a signal that arrived while deferring


def _handle(signum: int, frame: FrameType | None) -> None:
    if State.received is not None or State.pending is not None:
        return  # already stopping: let the clean-up finish
    if State.deferring:
        State.pending = signum
        return
    State.received = signum
    raise Interrupted(signum)


def _unraisable(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """An Interrupted raised inside a finaliser (``__del__``, a weakref callback) cannot
    propagate; Python would print it as "Exception ignored".  Say nothing: ``received`` stays
    set and :func:`raise_if_interrupted` raises it again at the next checkpoint."""

    def unraisable(info: Any) -> object:  # noqa: ANN401 -- sys.UnraisableHookArgs
        if isinstance(info.exc_value, Interrupted):
            return None
        return hook(info)

    return unraisable


class handling_signals:  # lower case: used as a function, `with handling_signals():`
    """Install the handlers for the stopping signals for the duration of the block.

    Only in the main thread, where Python runs signal handlers; elsewhere (a command started
    from a thread of another program) the block changes nothing.
    """

    def __init__(self) -> None:
        self.installed = False
        self.unraisablehook: Callable[[Any], object] = sys.unraisablehook

    def __enter__(self) -> handling_signals:
        if State.depth == 0:
            try:
                previous = {s: signal.signal(s, _handle) for s in STOPPING}
            except ValueError:  # not the main thread
                return self
            State.previous = previous
            State.received, State.pending, State.reported = None, None, False
            self.unraisablehook = sys.unraisablehook
            sys.unraisablehook = _unraisable(sys.unraisablehook)
        State.depth += 1
        self.installed = True
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if not self.installed:
            return
        State.depth -= 1
        if State.depth == 0:
            for signum, previous in State.previous.items():
                signal.signal(signum, previous)
            sys.unraisablehook = self.unraisablehook


class deferred_signals:  # lower case: used as a function, `with deferred_signals():`
    """Hold a stopping signal that arrives inside the block until the block ends.

    For the few steps that must not be cut in two: between starting a process and holding its
    handle (an interrupt there would leave the process running, unknown to anyone), or
    between creating a folder and entering the ``try`` that removes it.
    """

    def __enter__(self) -> deferred_signals:
        State.deferring += 1
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        State.deferring -= 1
        if not State.deferring and State.pending is not None and State.received is None:
            State.received, State.pending = State.pending, None
            raise Interrupted(State.received)


def raise_if_interrupted() -> None:
    """Raise the stopping signal that arrived, if its exception was lost (see _unraisable)."""
    if State.received is not None and not State.reported:
        raise Interrupted(State.received)


def exit_status(error: KeyboardInterrupt) -> int:
    """128 + the signal's number, as a shell reports a command stopped by it (130 for SIGINT)."""
    return 128 + (error.signum if isinstance(error, Interrupted) else signal.SIGINT)


def report(error: KeyboardInterrupt) -> int:
    """Print the one line an interrupted command prints, once, and give its exit status."""
    if not State.reported:
        State.reported = True
        signum = error.signum if isinstance(error, Interrupted) else signal.SIGINT
        said = "interrupted" if signum == signal.SIGINT else f"terminated ({_name(signum)})"
        # stderr may be gone with the terminal (SIGHUP): then stay quiet.
        with contextlib.suppress(OSError, ValueError):
            print(f"{PROGRAM}: {said}", file=sys.stderr, flush=True)
    return exit_status(error)


def _name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
