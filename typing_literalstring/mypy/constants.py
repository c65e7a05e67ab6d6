"""Module and class names that only ever hold literal strings become LiteralString.

pyright gives an unannotated variable the union of the types assigned to it, literals kept:
after ``TABLE = "users"``, ``TABLE`` is ``Literal["users"]`` wherever it is used, in a function
or in a module that imports it.  mypy widens it to ``str``, so ``f"SELECT * FROM {TABLE}"`` in
a function, ``conn.executescript(SCHEMA)`` or ``sink(Q.TABLE)`` were false errors.

Once mypy has checked a module, the post-pass gives each such name the LiteralString marker:
uses in the module are judged with it, and so are the modules checked after it, which see the
variable's type (mypy's cache keeps it, the marker being an alias of ``typing.LiteralString``).
A name qualifies when it is inferred (not annotated), ``str``-typed, every assignment to it in
its own scope is a literal string, and nothing else assigns it: no ``global`` declaration of
it in a function, and, for a class attribute, no ``x.NAME = ...`` anywhere in the module.
"""

from __future__ import annotations

from typing import Iterator

from mypy.nodes import (
    AssignmentStmt,
    ClassDef,
    Expression,
    GlobalDecl,
    ListExpr,
    MemberExpr,
    MypyFile,
    Node,
    OperatorAssignmentStmt,
    StarExpr,
    TupleExpr,
    Var,
)
from mypy.types import TupleType, Type, get_proper_type

from typing_literalstring.mypy.literals import Literalness
from typing_literalstring.mypy.marker import is_marked, is_str, mark
from typing_literalstring.mypy.walk import scope_assignments, walk_statements


def _assigned_elsewhere(tree: MypyFile) -> tuple[set[str], set[str]]:
    """Names declared ``global`` in a function, and attribute names assigned through ``x.NAME``."""
    globals_: set[str] = set()
    attributes: set[str] = set()
    for node, _, _ in walk_statements(tree):
        if isinstance(node, GlobalDecl):
            globals_.update(node.names)
        elif isinstance(node, AssignmentStmt):
            attributes.update(t.name for t in _targets(node.lvalues) if isinstance(t, MemberExpr))
        elif isinstance(node, OperatorAssignmentStmt) and isinstance(node.lvalue, MemberExpr):
            attributes.add(node.lvalue.name)
    return globals_, attributes


def _targets(lvalues: list[Expression]) -> Iterator[Expression]:
    for lvalue in lvalues:
        if isinstance(lvalue, (TupleExpr, ListExpr)):
            yield from _targets(lvalue.items)  # a, b = ... and [a, b] = ...
        elif isinstance(lvalue, StarExpr):
            yield from _targets([lvalue.expr])
        else:
            yield lvalue


def _str_or_tuple_of_str(t: Type) -> bool:
    p = get_proper_type(t)
    if isinstance(p, TupleType):
        return bool(p.items) and all(_str_or_tuple_of_str(i) for i in p.items)
    return is_str(t)


def _literal_value(literals: Literalness, value: Expression, scope: Node) -> bool:
    """A literal string, or a tuple display of them (pyright keeps a tuple's literal items:
    ``VALID_COLUMNS = ("name", "email")``)."""
    if isinstance(value, TupleExpr):
        return bool(value.items) and all(_literal_value(literals, i, scope) for i in value.items)
    return literals.is_literal(value, scope)


def _classes(tree: MypyFile) -> Iterator[ClassDef]:
    for node, scope, _ in walk_statements(tree):
        if isinstance(node, ClassDef) and scope is tree:
            yield node


def mark_literal_constants(tree: MypyFile, literals: Literalness) -> list[Var]:
    """Give LiteralString to the module's and its classes' names that only hold literals."""
    candidates = [
        (scope, var, values)
        for scope in [tree, *_classes(tree)]
        for var, bindings in scope_assignments(scope).items()
        for values in [[b.value for b in bindings]]
        if var.is_inferred and var.type is not None and _str_or_tuple_of_str(var.type)
    ]
    if not candidates:
        return []  # most modules: no walk of every statement
    globals_, attributes = _assigned_elsewhere(tree)
    marked: list[Var] = []
    for scope, var, values in candidates:
        reassigned = globals_ if scope is tree else attributes
        if (
            var.name in reassigned
            or var.type is None
            or is_marked(var.type)
            or not values
            or not all(
                value is not None and _literal_value(literals, value, scope) for value in values
            )
        ):
            continue
        var.type = mark(var.type)
        marked.append(var)
    return marked
