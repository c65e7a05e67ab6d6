"""Edits to Python source by byte range: ast columns are UTF-8 byte offsets, not characters."""

from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass
from typing import Sequence

# The line ends Python's tokenizer knows (str.splitlines also splits on \f, \x1c and others).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def byte_offsets(source: str) -> list[int]:
    """The byte offset of each line's start (ast columns are UTF-8 byte offsets)."""
    offsets = [0]
    for match in _LINE.finditer(source):
        text = match.group(0)
        offsets.append(offsets[-1] + len(text.encode("utf-8")))
    return offsets


def segment(data: bytes, offsets: Sequence[int], node: ast.expr) -> str:
    """The source text of ``node``, from the file's bytes and ``byte_offsets``.

    ``ast.get_source_segment`` splits the whole file on every call; a file with hundreds of
    calls of interest made that the slowest step of ``check``.
    """
    assert node.end_lineno is not None
    assert node.end_col_offset is not None
    start = offsets[node.lineno - 1] + node.col_offset
    end = offsets[node.end_lineno - 1] + node.end_col_offset
    return data[start:end].decode("utf-8")


def apply_edits(source: str, edits: Sequence[tuple[int, int, bytes]]) -> str:
    """Replace byte ranges (start, end) of ``source``, later ones first so offsets hold."""
    out = bytearray(source.encode("utf-8"))
    for start, end, replacement in sorted(edits, key=lambda e: e[0], reverse=True):
        out[start:end] = replacement
    return out.decode("utf-8")


def wrapped(source: str, nodes: Sequence[ast.expr], prefix: bytes) -> list[tuple[int, int, bytes]]:
    """Edits that turn each node ``x`` into ``<prefix>x)``, keeping every line where it is."""
    offsets = byte_offsets(source)
    data = source.encode("utf-8")
    edits: list[tuple[int, int, bytes]] = []
    for node in nodes:
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        edits.append((start, end, prefix + data[start:end] + b")"))
    return edits


@dataclass(frozen=True)
class Inserted:
    """A copy of a source with text inserted at points of the original, and the way back from a
    position in the copy (where a checker reports) to the same position in the original."""

    text: str  # the copy
    points: tuple[tuple[int, str], ...]  # (character offset in the original, inserted text)
    original_starts: tuple[int, ...]  # character offset of each line's start, in the original
    copy_starts: tuple[int, ...]  # the same in the copy

    def original(self, line: int, column: int, *, inside: bool = False) -> tuple[int, int] | None:
        """The original's 1-based (line, column) of the copy's.  A position inside inserted
        text is None, or with ``inside`` the point where that text was inserted."""
        if not 0 < line <= len(self.copy_starts):
            return None
        offset = self.copy_starts[line - 1] + max(column - 1, 0)
        shift = 0
        for at, inserted in self.points:
            start = at + shift
            if offset < start:
                break
            if offset < start + len(inserted):
                if not inside:
                    return None  # a message about what we inserted, not about the original
                offset = start
                break
            shift += len(inserted)
        offset -= shift
        index = bisect.bisect_right(self.original_starts, offset) - 1
        return index + 1, offset - self.original_starts[index] + 1


def line_starts(source: str) -> tuple[int, ...]:
    """The character offset of each line's start, lines ending as the tokenizer ends them."""
    starts = [0]
    for match in _LINE.finditer(source):
        starts.append(starts[-1] + len(match.group(0)))
    return tuple(starts)


def insert_at(source: str, insertions: Sequence[tuple[int, bytes]]) -> Inserted:
    """``source`` with each (UTF-8 byte offset, bytes) inserted; insertions at the same offset
    keep their order."""
    data = source.encode("utf-8")
    ordered = sorted(enumerate(insertions), key=lambda item: (item[1][0], item[0]))
    pieces: list[bytes] = []
    points: list[tuple[int, str]] = []
    done = 0
    for _, (at, text) in ordered:
        pieces.append(data[done:at])
        pieces.append(text)
        points.append((len(data[:at].decode("utf-8")), text.decode("utf-8")))
        done = at
    pieces.append(data[done:])
    copy = b"".join(pieces).decode("utf-8")
    return Inserted(copy, tuple(points), line_starts(source), line_starts(copy))
