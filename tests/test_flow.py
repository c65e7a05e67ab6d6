"""The statements that build a call's text, which a baseline entry's fingerprint covers with
the call's own statement (issue 43 item 9; the baseline itself: tests/test_adoption.py)."""

from __future__ import annotations

import ast

from typing_literalstring.analysis.flow import building_lines


def _lines(source: str, line: int) -> list[int]:
    """The lines that build the text argument of the call on ``line``."""
    tree = ast.parse(source)
    (call,) = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.lineno == line and n.args]
    return building_lines(tree, call.args[0])


def test_the_flow_is_the_functions_own_assignments_transitively() -> None:
    source = """\
PREFIX = "SELECT "


def f(cur, table, n):
    where = " WHERE n = %d" % n
    unrelated = table + "x"
    q = PREFIX + table
    q += where
    q += " LIMIT 1"
    cur.execute(q)
    q = "later"
"""
    # PREFIX is the module's (another scope), table a parameter: neither is a statement of f.
    assert _lines(source, 10) == [5, 7, 8, 9]
    assert _lines("def g(cur):\n    cur.execute('SELECT 1')\n", 2) == []
