"""Edits to Python source by byte range: ast columns are UTF-8 byte offsets, not characters."""

from __future__ import annotations

import ast
import re
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
