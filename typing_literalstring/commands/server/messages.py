"""What the server and its worker say to each other: a request for a check, and its outcome as
each file's diagnostics in plain data (the server makes the protocol's objects of them).

Both are pickled frames, each a length and the pickle, on the worker's standard input and
output: between two processes of ours, never anything read from the checked project.
"""

from __future__ import annotations

import os
import pickle
import struct
from dataclasses import dataclass, field
from typing import IO, Mapping

from typing_literalstring.commands.server.options import Options

ERROR = "error"
WARNING = "warning"
INFORMATION = "information"


@dataclass(frozen=True)
class Place:
    path: str
    start: tuple[int, int]  # 0-based line, column in the position encoding
    end: tuple[int, int]


@dataclass(frozen=True)
class Related:
    place: Place
    message: str


@dataclass(frozen=True)
class Item:
    """One diagnostic."""

    place: Place
    severity: str  # ERROR, WARNING or INFORMATION
    code: str  # the rule id; "" for what is not a finding (a file not checked)
    message: str
    href: str = ""  # the rule page
    related: tuple[Related, ...] = ()
    # What the code actions and the hover need to know of the finding (actions.py).
    data: Mapping[str, str] = field(default_factory=lambda: {})


_LENGTH = struct.Struct(">Q")


@dataclass(frozen=True)
class Request:
    folder: str  # a folder of the project to check: its root is found from there
    options: Options
    encoding: str  # the editor's position encoding


@dataclass
class Outcome:
    """What one check found, ready for the editor; ``error`` when it found nothing."""

    items: dict[str, list[Item]] = field(default_factory=lambda: {})
    # Each checked file's (modification time in ns, size) after the check: a file opened later
    # is shown from this check while it has not changed since.
    checked: dict[str, tuple[int, int]] = field(default_factory=lambda: {})
    root: str = ""
    summary: str = ""  # the text report's last line
    notices: list[str] = field(default_factory=lambda: [])  # unresolved imports and the like
    error: str = ""  # why the check failed (a usage error, a checker that failed, a crash)
    crashed: bool = False  # ``error`` is an internal error: a bug of ours, with its traceback
    seconds: float = 0.0


def write_frame(stream: IO[bytes], value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> object:
    """The next frame; EOFError when the other side is gone."""
    header = _read_exactly(stream, _LENGTH.size)
    return pickle.loads(_read_exactly(stream, _LENGTH.unpack(header)[0]))


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            raise EOFError("the other process closed its end")
        data += chunk
    return data


def stat(path: str) -> tuple[int, int]:
    try:
        found = os.stat(path)
    except OSError:
        return (0, -1)
    return (found.st_mtime_ns, found.st_size)
