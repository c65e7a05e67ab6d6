"""The plugin's second opinion: is an expression literal in fact, judged on the module's source?

Where the plugin's own inference (``literals.py``, on mypy's tree and types) finds an expression
not literal, it asks ``core.literal_idioms``, the judge that ``check`` uses for every other
checker, so that an idiom such as ``", ".join(["?"] * len(ids))`` or a loop over a tuple of
table names gets the same verdict under each.  That judge reads Python's ``ast``, so the plugin
parses the checked module's own file (read, never run), once per file and only when asked: the
file mypy read, or the copy it read in its place (``--shadow-file``).  An expression is found by
its span, which mypy takes from the same ``ast``; one that mypy made up (the pieces of an
f-string before Python 3.12) has no span of its own and is not judged here.  mypy's native
parser counts columns its own way on a line that is not ASCII (``_native_columns``).  A file
that cannot be read or parsed (a grammar newer than ours, without tree-sitter to rewrite it),
or whose node at that span is not the expression mypy saw, proves nothing.
"""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path
from typing import Callable, NamedTuple

from mypy.nodes import (
    AssignmentExpr,
    CallExpr,
    ConditionalExpr,
    Expression,
    IndexExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    StrExpr,
)
from mypy.options import Options

from typing_literalstring.core import sources
from typing_literalstring.core.literal_idioms import literal_in_fact, node_at

InFact = Callable[[Expression], bool]

# What each mypy node may be in Python's ast (mypy rewrites an f-string into calls of format).
_SAME_NODE: dict[type, tuple[type, ...]] = {
    NameExpr: (ast.Name,),
    MemberExpr: (ast.Attribute,),
    CallExpr: (ast.Call, ast.JoinedStr),
    OpExpr: (ast.BinOp, ast.BoolOp),
    StrExpr: (ast.Constant, ast.JoinedStr),
    IndexExpr: (ast.Subscript,),
    ConditionalExpr: (ast.IfExp,),
    AssignmentExpr: (ast.NamedExpr,),
}


class _Parsed(NamedTuple):
    tree: ast.Module
    lines: list[str]  # the text ast read, by line (newer grammar rewritten in place)


@functools.lru_cache(maxsize=16)  # the modules being checked now: a tree is big
def _parsed(path: str) -> _Parsed | None:
    try:
        # As Python reads it (coding cookie, BOM); a newer grammar than ours rewritten with
        # every offset kept (core/grammar.py, when tree-sitter is installed).
        source, tree = sources.read(Path(path))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return _Parsed(tree, source.parsable.split("\n"))


@functools.lru_cache(maxsize=None)
def _read_path(path: str, shadows: tuple[tuple[str, str], ...]) -> str:
    """The file mypy read for ``path``: its ``--shadow-file`` copy, if it has one."""
    for source, shadow in shadows:
        try:
            if os.path.samefile(path, source):
                return shadow
        except OSError:
            continue
    return path


@functools.lru_cache(maxsize=256)
def _native_columns(text: str) -> dict[int, list[int]]:
    """mypy's native parser (ast_serialize) -> ``ast`` columns (UTF-8 bytes) on one line.

    Measured with mypy 2.4.1: a column after ``c`` characters taking ``b`` bytes is given as
    ``2 * c - b`` (``b`` for ``ast``); the same on a line of ASCII only.  Several columns may
    map to one: each is tried."""
    columns: dict[int, list[int]] = {0: [0]}
    encoded = 0
    for characters, character in enumerate(text, 1):
        encoded += len(character.encode("utf-8", "surrogatepass"))
        columns.setdefault(2 * characters - encoded, []).append(encoded)
    return columns


def _columns(parsed: _Parsed, line: int, column: int, native: bool) -> list[int]:
    text = parsed.lines[line - 1] if 0 < line <= len(parsed.lines) else ""
    if not native or text.isascii():
        return [column]
    return _native_columns(text).get(column, [])


def source_facts(path: str, options: Options) -> InFact:
    """Whether an expression of the module at ``path`` is literal in fact."""
    read = _read_path(path, tuple((s[0], s[1]) for s in options.shadow_file or []))
    native = bool(getattr(options, "native_parser", False))

    def judge(expr: Expression) -> bool:
        if expr.end_line is None or expr.end_column is None or expr.line < 1:
            return False
        parsed = _parsed(read)
        if parsed is None:
            return False
        expected = _SAME_NODE.get(type(expr))
        for start in _columns(parsed, expr.line, expr.column, native):
            for end in _columns(parsed, expr.end_line, expr.end_column, native):
                node = node_at(parsed.tree, expr.line, start, expr.end_line, end)
                if node is not None and (expected is None or isinstance(node, expected)):
                    return literal_in_fact(node, parsed.tree)
        return False

    return judge
