"""The opt-in ``shell_argv`` check: ``subprocess.run(["sh", "-c", script])`` with a script that
is not a literal string.

No signature can see this injection: the argument list is only ``list[str]``.  The project's
detector (:mod:`typing_literalstring.specs.argv_shell`) finds the script element of each argument
list that starts a shell in the module's source; the post-pass then asks whether that
expression is literal, as for any LiteralString parameter.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterable

from mypy.nodes import Expression

from typing_literalstring.specs.argv_shell import find


@dataclass(frozen=True)
class Place:
    line: int
    column: int
    end_line: int
    end_column: int


def script_places(path: str) -> list[Place]:
    """Where the shell scripts of argument lists are in the module's source file."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        tree = ast.parse(data, filename=path)
    except (OSError, SyntaxError, ValueError):
        return []
    return [
        Place(
            shell.script.lineno,
            shell.script.col_offset,
            shell.script.end_lineno or shell.script.lineno,
            shell.script.end_col_offset or 0,
        )
        # The text only serves to skip files naming no shell program, whose names are ASCII.
        for shell in find(tree, data.decode("utf-8", errors="replace"))
    ]


def script_expressions(places: list[Place], expressions: Iterable[Expression]) -> list[Expression]:
    """mypy's expression at each place (the outermost one that starts there)."""
    wanted = {(p.line, p.column): p for p in places}
    found: dict[tuple[int, int], Expression] = {}
    for expr in expressions:
        place = wanted.get((expr.line, expr.column))
        if place is None:
            continue
        key = (place.line, place.column)
        exact = expr.end_line == place.end_line and expr.end_column == place.end_column
        if exact or key not in found:
            found[key] = expr
    return [found[key] for key in sorted(found)]
