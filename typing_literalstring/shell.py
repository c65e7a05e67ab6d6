"""Safe ways to put values into a POSIX shell command line, typed ``LiteralString``.

The best fix for a shell command built from data is no shell at all: ``subprocess.run(["ls",
path])``.  Where a shell is needed (a pipeline, a command from configuration), these helpers
are sanitizers: the one documented place where a value from outside becomes part of a
``LiteralString``, because what they return is one shell word whatever the value holds.

    subprocess.run(f"ls -l {quote(path)} | wc -l", shell=True)
    subprocess.run(join(["tar", "czf", archive, *files]), shell=True)

For POSIX shells (``sh``, ``bash``, ``zsh``: ``shell=True`` on Linux and macOS).  Not for
``cmd.exe`` or PowerShell, whose quoting rules differ: ``shell=True`` on Windows.
"""

from __future__ import annotations

import shlex
from typing import Iterable, cast

from typing_literalstring import LiteralString

__all__ = ["join", "quote"]


def quote(arg: str) -> LiteralString:
    """``shlex.quote(arg)``: ``arg`` as one shell word (in single quotes where it needs them,
    each embedded single quote written as ``'"'"'``).

    Safe for a POSIX shell: inside single quotes no character is special, so the value can
    neither end the word nor start a command.
    """
    if not isinstance(arg, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"arg must be a str, not {type(arg).__name__}")
    # The sanitizer: shlex.quote makes any text a single word, so it is literal to the shell.
    quoted = shlex.quote(arg)
    return cast(LiteralString, quoted)  # type: ignore[redundant-cast]  # mypy: LiteralString is str


def join(args: Iterable[str]) -> LiteralString:
    """``shlex.join(args)``: each argument quoted as by ``quote``, joined by spaces, so the
    shell sees exactly ``args`` as its words."""
    return " ".join(quote(arg) for arg in args)
