"""The fix that applies to one finding, read from the code that builds the string.

A rule's fix says what to do in general ("keep the SQL text literal and pass values as
parameters"); most findings on real code are one of a few dynamic parts that a helper of
``typing_literalstring.sql`` or ``.shell`` makes literal, or a constant declared ``str``.  The
hint names the one that applies, from the text just before each dynamic part of the string.
"""

from __future__ import annotations

import ast
import re

from typing_literalstring.analysis.findings import PSYCOPG_FIX, Finding
from typing_literalstring.analysis.statements import all_statements
from typing_literalstring.specs.sinks import (
    LOGGING,
    LOGGING_MESSAGE,
    MARKUP,
    NON_LITERAL,
    SHELL,
    SHELL_ARGV,
    SQL,
    TEMPLATE,
    UNVERIFIED,
    UNVERIFIED_BUILT,
    UNVERIFIED_SINK,
    UNVERIFIED_UNTYPED,
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
# Each hint is one short sentence: the rule's own fix comes first, and the text report puts
# both on one line (the full explanation is the rule's page, `typing-literalstring rule LS101`).
# The markers say the values are passed as parameters: the sentence need not.
PLACEHOLDERS = "Build the list's markers with typing_literalstring.sql.placeholders(len(values))."
NAMES = (
    "Choose a name with typing_literalstring.sql.pick(name, ('a', 'b')) or quote it with "
    "sql.identifier(name)."
)
# Said after a shell rule's fix, which already says to drop the shell: this is the way to keep
# one, not a second wording of the same advice.
SHELL_WORDS = "To keep the shell, quote each value with typing_literalstring.shell.quote."
# For a value of type Any (LS901) in SQL text, or at a LiteralString of no sink family.
PICK = "A value that is one of a few names: typing_literalstring.sql.pick(value, ('a', 'b'))."
DECLARED_STR = " declared str"
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
            f"{names} {'is a constant' if len(constants) == 1 else 'are constants'}"
            f"{DECLARED_STR}, which is never literal: annotate it Final (or LiteralString) "
            "instead."
        )
    if rule is SQL or (rule is NON_LITERAL and family in _SQL_FAMILIES):
        if any(_VALUE_LIST.search(text) for text, _ in dynamic):
            sentences.append(PLACEHOLDERS)
        if any(_NAME.search(text) for text, _ in dynamic):
            sentences.append(NAMES)
    elif rule is SHELL and dynamic:
        sentences.append(SHELL_WORDS)
    return " ".join(sentences)


# Each rule's fix in a line: the text report's `fix:` line, which ends by pointing at the rule's
# page for the whole story (the rule's own ``fix`` stays the JSON and SARIF one).
SHORT_FIXES = {
    NON_LITERAL.id: "Keep the text literal and pass values separately.",
    SQL.id: 'Keep the SQL literal and pass values as parameters: execute("... id = ?", (value,)).',
    SHELL.id: 'Pass a list and no shell=True: subprocess.run(["ls", path]).',
    SHELL_ARGV.id: "Run the program directly, or keep the script literal and pass values as its "
    "arguments.",
    LOGGING.id: 'Keep the format literal and pass values as arguments: log.info("Got %s", value).',
    LOGGING_MESSAGE.id: 'Pass values as arguments: log.info("Got %s", value).',
    TEMPLATE.id: "Keep the template literal (or load it from a file) and pass values in the "
    "render context.",
    MARKUP.id: "Keep the markup literal and let the library escape values: "
    'Markup("<b>%s</b>") % v.',
    UNVERIFIED.id: "Give the value a type where it enters the program (str, a TypedDict).",
    UNVERIFIED_BUILT.id: "Give the Any part a type where it enters the program (annotate it str).",
    UNVERIFIED_UNTYPED.id: "Annotate that parameter or return (LiteralString, else str).",
    UNVERIFIED_SINK.id: "Type the receiver, or annotate your sink's parameter LiteralString.",
}
# Hints that are the whole fix of their finding: the rule's general advice is not said too.
_WHOLE_FIXES = (PLACEHOLDERS, NAMES, PSYCOPG_FIX)
_CONSTANTS = re.compile(r"[\w., ]+ (?:is a constant|are constants)" + DECLARED_STR + ",")


def short_fix(finding: Finding) -> str:
    """``finding``'s fix in one line: the hint that applies to this string (after the rule's
    short fix, unless the hint is the whole fix), and where the rule's full page is."""
    extra = PSYCOPG_FIX if finding.uses_psycopg else finding.hint
    whole = extra.startswith(_WHOLE_FIXES) or _CONSTANTS.match(extra) is not None
    said = "" if whole else SHORT_FIXES.get(finding.rule.id, finding.rule.fix)
    page = f"See `typing-literalstring rule {finding.rule.id}`."
    return " ".join(part for part in (said, extra, page) if part)
