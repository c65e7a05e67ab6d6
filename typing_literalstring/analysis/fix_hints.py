"""The fix that applies to one finding, read from the code that builds the string.

A rule's fix says what to do in general ("keep the SQL text literal and pass values as
parameters"); most findings on real code are one of a few dynamic parts that a helper of
``typing_literalstring.sql`` or ``.shell`` makes literal, or a constant declared ``str``.  The
hint names the one that applies, from the text just before each dynamic part of the string.
"""

from __future__ import annotations

import ast
import re

from typing_literalstring.analysis.statements import all_statements
from typing_literalstring.specs.sinks import (
    LOGGING,
    LOGGING_MESSAGE,
    NON_LITERAL,
    SHELL,
    SQL,
    UNVERIFIED,
    Rule,
    callee_name,
)

# The SQL text just before a dynamic part that is a list of values: `IN (`, `VALUES (`.
_VALUE_LIST = re.compile(r"\b(?:IN|VALUES)\s*\(\s*$", re.IGNORECASE)
# ... and before one that is a name: a table or a column.
_NAME = re.compile(
    r"(?:\b(?:FROM|JOIN|INTO|UPDATE|TABLE|EXISTS|BY|SELECT|ALTER|INDEX|ON|AS|VIEW|TRIGGER"
    r"|COLUMN|SAVEPOINT|PRAGMA|SCHEMA|DATABASE)\s+|,\s*|\.)"
    r"[\"`\[]?$",
    re.IGNORECASE,
)
PLACEHOLDERS = (
    "For the list of values, build the markers with typing_literalstring.sql.placeholders: "
    'f"... IN ({placeholders(len(values))})" and pass the values as parameters.'
)
NAMES = (
    "For a table or column name, use typing_literalstring.sql.pick(name, ('a', 'b')) to "
    "choose from an allow-list of literals, or typing_literalstring.sql.identifier(name) to "
    "quote it (SQLite, PostgreSQL)."
)
SHELL_WORDS = (
    "If a shell is needed, quote each value with typing_literalstring.shell.quote (or a list "
    "of them with shell.join)."
)
# For a value of type Any (LS901) in SQL text, or at a LiteralString of no sink family.
PICK = (
    "A value that must be one of a few names can be chosen from literals: "
    "typing_literalstring.sql.pick(value, ('a', 'b'))."
)
# The families whose text may be SQL: a sink's own, or none known (the project's own
# `run_report(sql: LiteralString)`).  Markup, templates, shells and log messages are no SQL: the
# sql helpers never fix them (issue 28: `sql.pick` was offered at `Markup(...)`).
_SQL_FAMILIES = ("", SQL.family)


def _pieces(expr: ast.expr) -> list[str | ast.expr]:
    """A string built by an f-string, ``+``, ``%`` or ``str.format``, as its literal text and
    its dynamic parts, in order."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, ast.JoinedStr):
        pieces: list[str | ast.expr] = []
        for value in expr.values:
            # The text, or the expression inside the braces.
            piece = value.value if isinstance(value, (ast.Constant, ast.FormattedValue)) else None
            if isinstance(piece, (str, ast.expr)):
                pieces.append(piece)
        return pieces
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _pieces(expr.left) + _pieces(expr.right)
    template: str | None = None
    values: list[ast.expr] = []
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
        if isinstance(expr.left, ast.Constant) and isinstance(expr.left.value, str):
            template = re.sub(r"%[sdr]", "\0", expr.left.value)
            values = list(expr.right.elts) if isinstance(expr.right, ast.Tuple) else [expr.right]
    elif (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "format"
        and isinstance(expr.func.value, ast.Constant)
        and isinstance(expr.func.value.value, str)
    ):
        template = re.sub(r"\{[^{}]*\}", "\0", expr.func.value.value)
        values = list(expr.args)
    if template is None:
        return [expr]
    out: list[str | ast.expr] = []
    for n, text in enumerate(template.split("\0")):
        out.append(text)
        if n < len(values):
            out.append(values[n])
    return out


def _dynamic(expr: ast.expr) -> list[tuple[str, ast.expr]]:
    """Each dynamic part of the string, with the literal text just before it."""
    found: list[tuple[str, ast.expr]] = []
    text = ""
    for piece in _pieces(expr):
        if isinstance(piece, str):
            text += piece
        else:
            found.append((text, piece))
            text = ""
    return found


def declared_str(tree: ast.Module) -> frozenset[str]:
    """The names declared ``NAME: str = "literal"`` (module, class or function level): constants
    whose annotation widens them, found once per file."""
    return frozenset(
        name
        for node in all_statements(tree)
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.annotation, ast.Name)
        and node.annotation.id == "str"
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and (name := callee_name(node.target)) is not None
    )


def hint(
    rule: Rule,
    argument: ast.expr | None,
    constants_declared_str: frozenset[str],
    family: str = "",
) -> str:
    """The sentences to add to ``rule``'s fix for a finding whose string is ``argument``
    (``constants_declared_str``: ``declared_str`` of its file; ``family``: the family of the
    sink called there, "" when the call is none of ours)."""
    if rule in (LOGGING, LOGGING_MESSAGE):
        return ""
    sentences: list[str] = []
    if rule is UNVERIFIED:
        # One rule for every sink: its helper is the sink family's.
        if family in _SQL_FAMILIES:
            sentences.append(PICK)
        elif family == SHELL.family:
            sentences.append(SHELL_WORDS)
    if argument is None:
        return " ".join(sentences)
    dynamic: list[tuple[str, ast.expr]] = []
    constants: set[str] = set()
    for text, part in _dynamic(argument):
        name = callee_name(part)
        if name is not None and name in constants_declared_str:
            constants.add(name)  # its own fix, whatever its place
        else:
            dynamic.append((text, part))
    if constants:
        names = ", ".join(sorted(constants))
        sentences.append(
            f"{names} {'is a constant' if len(constants) == 1 else 'are constants'} declared "
            "str, which is never literal: annotate it Final (or LiteralString) instead."
        )
    if rule is SQL or (rule is NON_LITERAL and family in _SQL_FAMILIES):
        if any(_VALUE_LIST.search(text) for text, _ in dynamic):
            sentences.append(PLACEHOLDERS)
        if any(_NAME.search(text) for text, _ in dynamic):
            sentences.append(NAMES)
    elif rule is SHELL and dynamic:
        sentences.append(SHELL_WORDS)
    return " ".join(sentences)
