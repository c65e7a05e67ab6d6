"""Argument lists built step by step before the call that starts the process.

Real code builds the list first and passes a name::

    args = []
    if os.name == "nt":
        args += ["cmd.exe", "/c"]
    else:
        args.append("sh"); args.append("-c")
    args.append(f"echo {name}")
    subprocess.run(args)

This module follows one name through the statements of its scope, in order, up to the call:
assignments of displays and of ``+`` of displays, ``+=``, ``.append``, ``.extend`` and
``.insert``, along every branch of ``if``/``else`` (a loop body runs zero times or once).  The
result is each sequence of items the list may hold at the call, as syntax nodes, so the caller
can tell which item is a shell's script.  Anything it cannot follow (the list returned by a
function, ``.pop()``, an item assigned by index) gives no answer rather than a wrong one.
"""

from __future__ import annotations

import ast
from typing import List, cast

Sequences = List[List[ast.expr]]
# Paths through branches are multiplied; past this many sequences the list is not followed.
MAX_SEQUENCES = 64
# Methods that change a list in ways not followed: after one of these, no answer.
_UNFOLLOWED = {"pop", "remove", "clear", "reverse", "sort", "__setitem__", "__iadd__"}


class _Lost(Exception):
    """The list changed in a way this module does not follow."""


def _contains(node: ast.AST, target: ast.AST) -> bool:
    return any(child is target for child in ast.walk(node))


def _bounded(sequences: Sequences) -> Sequences:
    unique: dict[tuple[int, ...], list[ast.expr]] = {}
    for sequence in sequences:
        unique.setdefault(tuple(id(item) for item in sequence), sequence)
    if len(unique) > MAX_SEQUENCES:
        raise _Lost
    return list(unique.values())


def items_of(expr: ast.expr, name: str, current: Sequences | None) -> Sequences:
    """The sequences a list expression may hold: a display, ``name`` itself, ``+`` of those."""
    if isinstance(expr, (ast.List, ast.Tuple)):
        found: Sequences = [[]]
        for element in expr.elts:
            if isinstance(element, ast.Starred):
                if not (isinstance(element.value, ast.Name) and element.value.id == name):
                    raise _Lost
                if current is None:
                    raise _Lost
                found = [s + t for s in found for t in current]
            else:
                found = [[*s, element] for s in found]
        return _bounded(found)
    if isinstance(expr, ast.Name) and expr.id == name and current is not None:
        return [list(s) for s in current]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        left = items_of(expr.left, name, current)
        right = items_of(expr.right, name, current)
        return _bounded([a + b for a in left for b in right])
    raise _Lost


def _assigns(target: ast.expr, name: str) -> bool:
    return isinstance(target, ast.Name) and target.id == name


def _method_call(statement: ast.stmt, name: str) -> ast.Call | None:
    if (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Attribute)
        and isinstance(statement.value.func.value, ast.Name)
        and statement.value.func.value.id == name
    ):
        return statement.value
    return None


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _stores(nodes: list[ast.AST], name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for node in nodes
        for n in ast.walk(node)
    )


def _header(statement: ast.stmt) -> list[ast.AST]:
    """The parts of a compound statement outside its blocks (a loop target, a test...)."""
    if isinstance(statement, (ast.For, ast.AsyncFor)):
        return [statement.target, statement.iter]
    if isinstance(statement, (ast.If, ast.While)):
        return [statement.test]
    if isinstance(statement, (ast.With, ast.AsyncWith)):
        return list(statement.items)
    return []


def _step(statement: ast.stmt, name: str, current: Sequences | None) -> Sequences | None:
    """The sequences after one statement that does not hold the call."""
    if _stores(_header(statement), name):
        raise _Lost  # `for args in ...`, `with ... as args`, `if (args := ...)`
    if isinstance(statement, ast.Assign) and any(_assigns(t, name) for t in statement.targets):
        if len(statement.targets) != 1:
            raise _Lost
        return items_of(statement.value, name, current)
    if isinstance(statement, ast.AnnAssign) and _assigns(statement.target, name):
        return items_of(statement.value, name, current) if statement.value else current
    if isinstance(statement, ast.AugAssign) and _assigns(statement.target, name):
        if not isinstance(statement.op, ast.Add) or current is None:
            raise _Lost
        added = items_of(statement.value, name, current)
        return _bounded([s + t for s in current for t in added])
    call = _method_call(statement, name)
    if call is not None and isinstance(call.func, ast.Attribute):
        method = call.func.attr
        if method in ("append", "extend", "insert") and current is None:
            raise _Lost
        if method == "append" and len(call.args) == 1 and current is not None:
            return [[*s, call.args[0]] for s in current]
        if method == "extend" and len(call.args) == 1 and current is not None:
            added = items_of(call.args[0], name, current)
            return _bounded([s + t for s in current for t in added])
        if (
            method == "insert"
            and len(call.args) == 2
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, int)
            and current is not None
        ):
            index = call.args[0].value
            return [[*s[:index], call.args[1], *s[index:]] for s in current]
        if method in _UNFOLLOWED or method in ("append", "extend", "insert"):
            raise _Lost
        return current  # a method that reads the list (count, index, copy)
    if isinstance(statement, ast.If):
        return _union(
            _block(statement.body, name, current), _block(statement.orelse, name, current)
        )
    if isinstance(statement, (ast.For, ast.AsyncFor, ast.While)):
        once = _block(statement.body, name, current)
        return _union(_union(current, once), _block(statement.orelse, name, current))
    if isinstance(statement, (ast.With, ast.AsyncWith)):
        return _block(statement.body, name, current)
    if isinstance(statement, ast.Try):
        after = _block(statement.body + statement.orelse, name, current)
        for handler in statement.handlers:
            after = _union(after, _block(handler.body, name, current))
        return _block(statement.finalbody, name, after)
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return current  # another scope
    if isinstance(statement, ast.Delete) and _mentions(statement, name):
        raise _Lost
    targets: list[ast.expr] = (
        list(statement.targets)
        if isinstance(statement, ast.Assign)
        else [statement.target]
        if isinstance(statement, (ast.AugAssign, ast.AnnAssign))
        else []
    )
    if any(isinstance(t, ast.Subscript) and _mentions(t.value, name) for t in targets):
        raise _Lost  # args[0] = ...
    if not _header(statement) and _stores([statement], name):
        raise _Lost  # `args, rest = ...`, `print(args := ...)`
    return current


def _union(a: Sequences | None, b: Sequences | None) -> Sequences | None:
    if a is None or b is None:
        return a if b is None else b
    return _bounded(a + b)


def _block(statements: list[ast.stmt], name: str, current: Sequences | None) -> Sequences | None:
    for statement in statements:
        current = _step(statement, name, current)
    return current


def _blocks(statement: ast.stmt) -> list[list[ast.stmt]]:
    """The blocks of statements inside a compound statement (its body, else, handlers...)."""
    blocks: list[list[ast.stmt]] = []
    for field in ("body", "orelse", "finalbody"):
        inner: object = getattr(statement, field, None)
        if isinstance(inner, list):
            blocks.append([s for s in cast("list[object]", inner) if isinstance(s, ast.stmt)])
    if isinstance(statement, ast.Try):
        blocks += [handler.body for handler in statement.handlers]
    return blocks


def _until(
    statements: list[ast.stmt], name: str, current: Sequences | None, call: ast.Call
) -> Sequences | None:
    """The sequences when ``call``, somewhere in ``statements``, runs."""
    for statement in statements:
        if not _contains(statement, call):
            current = _step(statement, name, current)
            continue
        for block in _blocks(statement):
            if any(_contains(s, call) for s in block):
                return _until(block, name, current, call)
        return current  # the statement that makes the call
    return current


def sequences_at(scope: list[ast.stmt], name: str, call: ast.Call) -> Sequences | None:
    """Each sequence of items the list named ``name`` may hold when ``call`` runs, following
    the statements of ``scope`` (the body of the function, or module, holding the call);
    None when the list is built in a way this module does not follow."""
    try:
        return _until(scope, name, None, call)
    except _Lost:
        return None


def displayed(expr: ast.expr) -> Sequences | None:
    """The items of a display, or of ``+`` of displays (``["sh", "-c"] + [script]``)."""
    try:
        return items_of(expr, "", None)
    except _Lost:
        return None
