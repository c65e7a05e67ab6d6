"""Where a finding's statement is in its file, and its text with formatting taken out.

A suppression comment may sit on any line of the statement a finding falls in (formatters move
comments to the closing parenthesis), and the baseline identifies a finding by its statement's
tokens, so that moving the code or reformatting it keeps the match.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import io
import tokenize
import weakref
from typing import NamedTuple, Sequence, cast

from typing_literalstring.core.sources import lines

# Tokens that carry no meaning of the code: formatting and comments.
_LAYOUT = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
}


class Span(NamedTuple):
    first: int
    last: int

    def __contains__(self, line: object) -> bool:
        return isinstance(line, int) and self.first <= line <= self.last


def all_statements(
    tree: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef, definitions: bool = True
) -> list[ast.stmt]:
    """Every statement of a module (or a function), nested ones included, without visiting an
    expression: statements hold statements only in their blocks, so a 4,000-line file takes a
    tenth of ``ast.walk``'s time.  ``definitions=False``: not into the bodies of the
    functions and classes it defines (the statements of one scope)."""
    found: list[ast.stmt] = []
    blocks: list[list[ast.stmt]] = [tree.body]
    while blocks:
        for node in blocks.pop():
            found.append(node)
            if not definitions and isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            ):
                continue
            for name in ("body", "orelse", "finalbody"):
                block: object = getattr(node, name, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    blocks.append(cast("list[ast.stmt]", block))
            for inner in getattr(node, "handlers", None) or getattr(node, "cases", None) or ():
                blocks.append(inner.body)
    return found


_NODES: weakref.WeakKeyDictionary[ast.AST, list[ast.AST]] = weakref.WeakKeyDictionary()


def all_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of a module in ``ast.walk``'s order, walked once while the tree lives: the
    sink outcomes, the callee index and the probes each need a pass over every file, and a
    4,000-line file has 30,000 nodes."""
    nodes = _NODES.get(tree)
    if nodes is None:
        nodes = _NODES[tree] = list(ast.walk(tree))
    return nodes


_IMPORTED: weakref.WeakKeyDictionary[ast.AST, frozenset[str]] = weakref.WeakKeyDictionary()


def imported_packages(tree: ast.AST) -> frozenset[str]:
    """The top-level packages a module imports anywhere: also under `if TYPE_CHECKING:` or
    inside a function, where typed code often imports its driver (pgqueuer 0.19.5's
    `asyncpg`).  Found once while the tree lives: the callee index asks for each call on
    `self` (a third of `check`'s own time on huey 2.5.3 went to walking every node again)."""
    known = _IMPORTED.get(tree)
    if known is not None:
        return known
    found: set[str] = set()
    for node in all_nodes(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    known = _IMPORTED[tree] = frozenset(found)
    return known


class Statements:
    """One file's statements and tokens, read once."""

    def __init__(self, tree: ast.Module, source: str) -> None:
        self._statements = all_statements(tree)
        self._source = source
        self._lines = lines(source, keepends=True)  # as the tokenizer counts them

    @functools.cached_property
    def tokens(self) -> list[tokenize.TokenInfo]:
        """The whole file's tokens (only files that mention a suppression need them:
        tokenizing is slow in Python)."""
        return list(tokenize.generate_tokens(io.StringIO(self._source).readline))

    def span(self, line: int) -> Span:
        """The lines of the innermost statement that holds ``line``; of a compound statement
        (``if``, ``for``, ``with``...) only its header, never its body."""
        best: ast.stmt | None = None
        for node in self._statements:
            end = node.end_lineno or node.lineno
            if node.lineno <= line <= end and (best is None or node.lineno >= best.lineno):
                best = node
        if best is None:
            return Span(line, line)
        body: list[ast.stmt] = getattr(best, "body", [])
        if body and body[0].lineno > best.lineno:
            return Span(best.lineno, body[0].lineno - 1)
        return Span(best.lineno, best.end_lineno or best.lineno)

    def fingerprint(self, line: int, *parts: str, flow: Sequence[int] = ()) -> str:
        """A hash of ``parts`` and the code of the statement at ``line``, then ``:`` and a
        hash of the code of the statements at the lines of ``flow`` (those that build its
        text: ``flow.building_lines``), each without comments, line breaks or indentation:
        it survives moved lines and reformatting around them.  The part before ``:`` is the
        whole fingerprint of baselines written before version 2 (report.baseline)."""
        statement = hashlib.sha256("\0".join((*parts, self._code(line))).encode("utf-8"))
        building = hashlib.sha256("\0".join(self._code(at) for at in flow).encode("utf-8"))
        return f"{statement.hexdigest()[:20]}:{building.hexdigest()[:12]}"

    def _code(self, line: int) -> str:
        """The tokens of the statement at ``line``, without the layout."""
        span = self.span(line)
        fragment = "".join(self._lines[span.first - 1 : span.last])
        try:
            return " ".join(
                t.string
                for t in tokenize.generate_tokens(io.StringIO(fragment).readline)
                if t.type not in _LAYOUT
            )
        except (tokenize.TokenError, SyntaxError):  # a header cut from its body
            return " ".join(fragment.split())
