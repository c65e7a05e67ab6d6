"""Comparisons with literal strings that narrow a ``str`` name to a literal string, as pyright does.

mypy keeps ``key: str`` a ``str`` after ``if key == "name":``; pyright narrows it to
``Literal["name"]``, so ``sink(key)`` there is fine.  Measured with pyright 1.1.414, the forms
narrowed are exactly these (the name on the left):

- ``key == "lit"`` and ``key in ("a", "b")`` (a tuple display of literals; not a list or a set),
  in the branch where the test is true, also as an operand of ``and``;
- ``key != "lit"`` and ``key not in ("a", "b")`` in the ``else`` branch, and after the ``if``
  when its body always leaves (``return``, ``raise``, ``continue``, ``break``): the allow-list
  idiom ``if col not in ("a", "b"): raise ValueError(col)``.

``"lit" == key`` and ``key in ["a", "b"]`` are not narrowed by pyright, nor here.  A region ends
where the name is assigned again.
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy.nodes import (
    Block,
    BreakStmt,
    ComparisonExpr,
    ContinueStmt,
    Expression,
    ForStmt,
    IfStmt,
    NameExpr,
    Node,
    OpExpr,
    RaiseStmt,
    ReturnStmt,
    StrExpr,
    TupleExpr,
    UnaryExpr,
    Var,
    WhileStmt,
)
from mypy.types import TupleType, get_proper_type

from typing_literalstring.mypy.marker import is_marked
from typing_literalstring.mypy.walk import Binding, walk_statements

_EXITS = (ReturnStmt, RaiseStmt, ContinueStmt, BreakStmt)


@dataclass(frozen=True)
class Region:
    """Lines ``first`` to ``last`` where ``var`` holds a literal string (unless reassigned)."""

    var: Var
    first: int
    last: int


def _narrowed(test: Expression, when_true: bool) -> list[Var]:
    """The names ``test`` narrows to literal strings when it is true (or false)."""
    if isinstance(test, OpExpr) and test.op == ("and" if when_true else "or"):
        return _narrowed(test.left, when_true) + _narrowed(test.right, when_true)
    if isinstance(test, UnaryExpr) and test.op == "not":
        return _narrowed(test.expr, not when_true)
    if not isinstance(test, ComparisonExpr) or len(test.operators) != 1:
        return []
    operator = test.operators[0]
    name, other = test.operands
    if not isinstance(name, NameExpr) or not isinstance(name.node, Var):
        return []
    if operator in ("==", "!=") and isinstance(other, StrExpr):
        return [name.node] if (operator == "==") == when_true else []
    if operator in ("in", "not in") and _tuple_of_literals(other):
        return [name.node] if (operator == "in") == when_true else []
    return []


def _tuple_of_literals(expr: Expression) -> bool:
    """A tuple display of literal strings, or a name holding one (constants.py marks it)."""
    if isinstance(expr, TupleExpr):
        return bool(expr.items) and all(isinstance(item, StrExpr) for item in expr.items)
    var = expr.node if isinstance(expr, NameExpr) else None
    p = get_proper_type(var.type) if isinstance(var, Var) and var.type is not None else None
    return isinstance(p, TupleType) and bool(p.items) and all(is_marked(i) for i in p.items)


def _lines(block: Block | None) -> tuple[int, int] | None:
    if block is None or not block.body:
        return None
    last = block.body[-1]
    return block.body[0].line, last.end_line or last.line


def regions(scope: Node) -> list[Region]:
    """Where comparisons in ``scope`` (a function or module) narrow names to literals."""
    found: list[Region] = []
    for block, owner, _ in walk_statements(scope):
        if not isinstance(block, Block) or owner is not scope:
            continue
        block_lines = _lines(block)
        for node in block.body:
            if not isinstance(node, IfStmt) or len(node.expr) != 1:
                continue
            test = node.expr[0]
            body = _lines(node.body[0])
            if body is not None:
                found.extend(Region(var, *body) for var in _narrowed(test, True))
            otherwise = _narrowed(test, False)
            orelse = _lines(node.else_body)
            if orelse is not None:
                found.extend(Region(var, *orelse) for var in otherwise)
            leaves = bool(node.body[0].body) and isinstance(node.body[0].body[-1], _EXITS)
            if leaves and node.else_body is None and block_lines is not None:
                # To the end of the enclosing block only: after a loop that `continue`d, the
                # name may hold a value that failed the test.
                after = (node.end_line or node.line) + 1
                found.extend(Region(var, after, block_lines[1]) for var in otherwise)
    return found


def is_narrowed(expr: NameExpr, var: Var, found: list[Region], bindings: list[Binding]) -> bool:
    """Whether ``expr`` (a use of ``var``) lies in a region and no binding of it comes between."""
    return any(
        region.var is var
        and region.first <= expr.line <= region.last
        and not any(region.first <= b.line < expr.line for b in bindings)
        for region in found
    )


def loops(scope: Node) -> list[tuple[int, int]]:
    """The lines of each ``for`` and ``while`` statement of ``scope``."""
    return [
        (node.line, node.end_line or node.line)
        for node, owner, _ in walk_statements(scope)
        if isinstance(node, (ForStmt, WhileStmt)) and owner is scope
    ]
