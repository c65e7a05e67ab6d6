"""``typing-literalstring server``: a language server that shows ``check``'s findings in the
editor (docs/server.md).

Its modules: ``protocol`` (the language server, on pygls), ``scheduling`` (when to check,
cancelling a stale check), ``worker`` (the process that runs the checks), ``messages`` (what
the two say to each other), ``project_check`` (one check as ``check`` makes it),
``conversion`` and ``related`` (a result as diagnostics), ``actions`` (the quick fixes),
``options`` (the settings).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from typing_literalstring.commands import EXIT_OK
from typing_literalstring.core.errors import TypingLiteralStringError

# Said when pygls is missing: the server is an extra, so that the runtime stays one dependency.
NOT_INSTALLED = (
    "the language server needs pygls, which is not installed: install the server extra "
    "with `{python} -m pip install 'typing-literalstring[server]'`"
)
TOO_OLD = (
    "the language server needs Python 3.9 or newer (pygls 2), and this is Python {version}: "
    "install typing-literalstring[server] with a newer Python; check runs on this one"
)


# The protocol's exit status for an exit without a shutdown request first.
EXIT_WITHOUT_SHUTDOWN = 1


class ServerUnavailableError(TypingLiteralStringError):
    """The server cannot start here."""


def command(args: argparse.Namespace) -> int:
    """Serve the editor on standard input and output until it says exit; 0 after a shutdown
    request, 1 when the editor exits (or goes) without one, as the protocol says."""
    try:
        from typing_literalstring.commands.server import protocol
    except ImportError as error:
        if (error.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs", "attrs"):
            raise
        if sys.version_info < (3, 9):
            raise ServerUnavailableError(TOO_OLD.format(version=sys.version.split()[0])) from error
        python = Path(sys.executable).name
        raise ServerUnavailableError(NOT_INSTALLED.format(python=python)) from error
    from typing_literalstring.commands.server import options

    defaults = options.from_command_line(vars(args))
    server = protocol.build(defaults)
    # The workers start in a folder of ours, inside the command's private temporary folder
    # (entry.main), removed when the server exits.
    server.folder = Path(tempfile.mkdtemp(prefix="workers-"))
    try:
        server.start_io()
    finally:
        if server.scheduler is not None:
            server.scheduler.close()
    return EXIT_OK if server.shutdown_requested else EXIT_WITHOUT_SHUTDOWN
