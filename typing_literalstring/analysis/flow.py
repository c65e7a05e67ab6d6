"""The statements that build the text a finding's call receives: what the baseline's
fingerprint covers besides the call's own statement.

A baseline entry matched the call's statement alone, so a baselined ``conn.execute(query)``
stayed accepted when the line that builds ``query`` turned into an injection.  The fingerprint
now covers the flow too: the assignments, in the call's own function, of the names its text
argument uses, found as the sink outcomes find them (``scoped_bindings.binding_of``: the last
assignment on an earlier line), and the augmented assignments of those names between that
assignment and the use (``query += f" WHERE {user}"``); transitively, through the names those
use.  Only the code of these statements counts, never their lines: moved code keeps the match.
"""

from __future__ import annotations

import ast

from typing_literalstring.analysis.scoped_bindings import Scope, binding_of, scopes_at
from typing_literalstring.analysis.statements import all_statements


def building_lines(tree: ast.Module, text: ast.expr | None) -> list[int]:
    """The first line of each statement that builds ``text`` (the call's text argument; None:
    nothing), in the order of the file."""
    if text is None:
        return []
    scopes = scopes_at(tree)
    statements: dict[int, list[ast.stmt]] = {}  # id(scope) -> its own statements
    found: set[int] = set()
    pending = _names(text)
    while pending:
        name = pending.pop()
        around = scopes.get(id(name), [])[:1]  # the function (or module) it is used in
        binding = binding_of(name, around)
        if binding is None or binding.value is None:  # a parameter, a global, a builtin
            continue
        own = statements.get(id(around[0]))
        if own is None:
            own = statements[id(around[0])] = _own_statements(around[0])
        # The assignment, then each `name op= value` between it and the use.
        values = {binding.line: binding.value}
        for statement in own:
            if (
                isinstance(statement, ast.AugAssign)
                and isinstance(statement.target, ast.Name)
                and statement.target.id == name.id
                and binding.line < statement.lineno < name.lineno
            ):
                values[statement.lineno] = statement.value
        for line, value in values.items():
            if line not in found:
                found.add(line)
                pending.extend(_names(value))
    return sorted(found)


def _names(expr: ast.expr) -> list[ast.Name]:
    """The names an expression reads."""
    return [n for n in ast.walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def _own_statements(scope: Scope) -> list[ast.stmt]:
    """The statements of a function or module, not those of the functions it defines."""
    node = scope.node
    if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
        return all_statements(node, definitions=False)
    return []
