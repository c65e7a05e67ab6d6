"""The worker: a process of our own that runs the server's checks, one at a time.

The server starts it (``python -m typing_literalstring.commands.server.worker``) and keeps it
for the next check, with its modules imported and its caches warm.  To cancel a stale check
the server sends it SIGTERM: the signal handling of every command (``core.signals``) then kills
the checker's process group and removes the run's folders, and the worker exits; the server
starts another.  Requests and answers are pickled frames on the worker's standard input and
output (``messages``); anything else written to its standard output goes to standard error.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

from typing_literalstring.commands.server.messages import (
    Outcome,
    Request,
    read_frame,
    stat,
    write_frame,
)


def run(request: Request) -> Outcome:
    """One check, never raising: an error becomes the outcome's ``error``."""
    from typing_literalstring.commands.server import conversion, related
    from typing_literalstring.commands.server.project_check import check_project
    from typing_literalstring.core.errors import TypingLiteralStringError
    from typing_literalstring.report import output
    from typing_literalstring.report.notices import (
        third_party_notice,
        unchecked_notice,
        unresolved_notice,
    )
    from typing_literalstring.report.texts import Texts

    began = time.perf_counter()
    try:
        result = check_project(Path(request.folder), request.options)
        texts = Texts()
        chains = related.related_places(result, texts, request.encoding)
        found = conversion.items(
            result, request.encoding, request.options.unverified_severity, chains, texts
        )
        notices = [
            n
            for n in (
                unchecked_notice(result),
                unresolved_notice(result),
                third_party_notice(result),
            )
            if n is not None
        ]
        return Outcome(
            items={path: list(items) for path, items in found.items()},
            checked={str(Path(p).resolve()): stat(p) for p in result.paths},
            root=str(result.project),
            summary=output.summary(result),
            notices=notices,
            seconds=time.perf_counter() - began,
        )
    except TypingLiteralStringError as error:
        return Outcome(error=str(error), seconds=time.perf_counter() - began)
    except Exception as error:  # a bug of ours: said, and the server keeps serving
        return Outcome(
            error=f"internal error ({type(error).__name__}: {error}); please report it with "
            f"this traceback:\n{traceback.format_exc()}",
            crashed=True,
            seconds=time.perf_counter() - began,
        )


def main() -> None:
    """Serve requests until the server closes our input."""
    from typing_literalstring.core.signals import handling_signals

    # Installed before the heavy imports, as the command does (entry.main): a SIGTERM then
    # cancels whatever runs, killing the checker's processes.
    handling_signals().__enter__()
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print must not garble the frames
    requests = sys.stdin.buffer
    private = tempfile.mkdtemp(prefix="typing-literalstring-worker-")
    tempfile.tempdir = private  # every folder of a check, removed with this one on the way out
    try:
        # The check's modules imported now, while the server waits for nothing: warm.
        for module in ("conversion", "related", "project_check"):
            importlib.import_module(f"typing_literalstring.commands.server.{module}")

        while True:
            try:
                request = read_frame(requests)
            except EOFError:
                return
            if not isinstance(request, Request):
                raise TypeError(f"not a request: {type(request).__name__}")
            write_frame(channel, run(request))
    except KeyboardInterrupt:
        return  # cancelled: the check's finally blocks killed the checker and cleaned up
    finally:
        import shutil

        tempfile.tempdir = None
        shutil.rmtree(private, ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover - the server starts it
    main()
