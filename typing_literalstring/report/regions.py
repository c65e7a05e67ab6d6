"""Where a finding ends: the end of the call (or expression) it starts, read from its file.

A finding has the line and column where it starts, the sink call's (``classify``: the call's
``col_offset + 1``) or the checker's.  SARIF's region also takes the end: that of the call
starting there whose callee is the one the finding names, else of the innermost call starting
there, else of the largest expression starting there, else of the statement holding the line.
The end column is the one after the region's last character, in the unit the start matched in
(a UTF-8 byte offset, or characters), as SARIF's ``endColumn`` is.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

from typing_literalstring.analysis.findings import Finding
from typing_literalstring.analysis.statements import all_nodes, all_statements
from typing_literalstring.core import sources


class End(NamedTuple):
    line: int
    column: int  # 1-based, exclusive


class _File(NamedTuple):
    tree: ast.Module
    lines: tuple[str, ...]  # the text the tree was parsed from, by line


class Ends:
    """The ends of one output's findings, each file read once (and only for this output: a
    file may change between two checks in one process)."""

    def __init__(self) -> None:
        self._files: dict[str, _File | None] = {}

    def __call__(self, finding: Finding) -> End | None:
        """The end of ``finding``'s region; None when its file cannot be read or parsed."""
        if finding.end_line:
            return End(finding.end_line, finding.end_column)
        if finding.path not in self._files:
            self._files[finding.path] = _read(finding.path)
        read = self._files[finding.path]
        if read is None:
            return None
        return _end(read, finding.line, finding.column, finding.callee)


def _read(path: str) -> _File | None:
    try:
        source, tree = sources.read(Path(path))
    except (OSError, SyntaxError, ValueError):
        return None
    return _File(tree, tuple(sources.lines(source.parsable)))


def _end(read: _File, line: int, column: int, callee: str) -> End | None:
    starting: list[tuple[ast.expr, bool]] = []  # (expression, matched by bytes)
    for node in all_nodes(read.tree):
        if not isinstance(node, ast.expr) or node.lineno != line:
            continue
        if node.col_offset + 1 == column:
            starting.append((node, True))
        elif _characters(read, line, node.col_offset) + 1 == column:
            starting.append((node, False))
    calls = [(n, b) for n, b in starting if isinstance(n, ast.Call)]
    named = [(n, b) for n, b in calls if callee and _text(read, n.func) == callee]
    if named or calls:
        node, in_bytes = min(named or calls, key=lambda pair: _size(pair[0]))
    elif starting:
        node, in_bytes = max(starting, key=lambda pair: _size(pair[0]))
    else:
        statements = [
            s for s in all_statements(read.tree) if s.lineno <= line <= (s.end_lineno or s.lineno)
        ]
        if not statements:
            return None
        node, in_bytes = min(statements, key=_size), True
    end_line = node.end_lineno or node.lineno
    end_offset = node.end_col_offset if node.end_col_offset is not None else node.col_offset
    if in_bytes:
        return End(end_line, end_offset + 1)
    return End(end_line, _characters(read, end_line, end_offset) + 1)


def _size(node: ast.AST) -> tuple[int, int]:
    """How far a node reaches: lines, then columns (for picking the smallest or largest)."""
    start = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    end = (getattr(node, "end_lineno", 0) or start[0], getattr(node, "end_col_offset", 0) or 0)
    return (end[0] - start[0], end[1] - start[1])


def _characters(read: _File, line: int, offset: int) -> int:
    """A UTF-8 byte offset of a line as a count of characters."""
    text = read.lines[line - 1] if 0 < line <= len(read.lines) else ""
    return len(text.encode("utf-8")[:offset].decode("utf-8", errors="ignore"))


def _text(read: _File, node: ast.expr) -> str:
    """A callee as written, on one line (``conn.execute``); "" if it spans lines."""
    end_line = node.end_lineno or node.lineno
    if end_line != node.lineno or node.end_col_offset is None:
        return ""
    line = read.lines[node.lineno - 1].encode("utf-8")
    return line[node.col_offset : node.end_col_offset].decode("utf-8", errors="replace")
