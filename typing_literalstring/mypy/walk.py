"""Walking mypy's syntax tree from a plugin.

Compiled mypy does not allow interpreted subclasses of its visitors, so the walk is generic: it
reads the child attributes each node class declares (``__mypyc_attrs__``).
"""

from __future__ import annotations

from typing import Callable, Dict, Iterator, List, NamedTuple, Sequence, cast

from mypy.nodes import (
    ARG_POS,
    AssignmentExpr,
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    Decorator,
    Expression,
    ForStmt,
    FuncItem,
    IndexExpr,
    LambdaExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    SliceExpr,
    TupleExpr,
    TypeInfo,
    Var,
    WithStmt,
)
from mypy.types import CallableType, Instance, Type, TypeType, get_proper_type

from typing_literalstring.mypy.marker import is_marked


class Binding(NamedTuple):
    """One assignment to a name: the target's line, and the value (None: one the walk cannot
    see, such as a ``for`` or ``with`` target's)."""

    line: int
    value: Expression | None
    # The lines where this assignment has surely run, outside loops: from the end of its
    # statement to the end of the block holding it (None: it may not run, as a walrus in a
    # comprehension, a loop target or a ``with`` target).
    surely_run: tuple[int, int] | None = None
    # A ``for`` target's iterable (the target takes its items), when the target is one name.
    iterable: Expression | None = None
    # Where the assignment statement is, (line, column) of its start and of its end (None: not
    # an assignment statement): a use inside it, in its value (`q = f(q)`) or as the target
    # of `q += x`, reads the value the name had before.
    statement: tuple[tuple[int, int], tuple[int, int]] | None = None

    def dominates(self, line: int) -> bool:
        return self.surely_run is not None and self.surely_run[0] <= line <= self.surely_run[1]

    def holds(self, use: Node) -> bool:
        """Whether ``use`` lies inside this assignment statement (so it cannot see it)."""
        if self.statement is None:
            return False
        start, end = self.statement
        return start <= (use.line, use.column) < end


# Var -> its bindings in one scope, in no particular order.
Assignments = Dict[Var, List[Binding]]

_CHILD_ATTRS = (
    "defs", "body", "else_body", "finally_body", "handlers", "expr", "lvalues", "rvalue",
    "lvalue", "callee", "args", "left", "right", "operands", "items", "index", "base",
    "if_expr", "else_expr", "cond", "value", "target", "generator", "left_expr", "sequences",
    "condlists", "indices", "key", "func", "impl", "subject", "bodies", "guards", "vars",
    "types", "begin_index", "end_index", "stride", "call", "decorators", "msg", "from_expr",
)  # fmt: skip
# The attributes that hold statements (a statement walk need not enter expressions).
_STATEMENT_ATTRS = (
    "defs", "body", "else_body", "finally_body", "handlers", "bodies", "func", "items", "impl",
)  # fmt: skip
_attr_cache: dict[tuple[type, bool], tuple[str, ...]] = {}
# Nodes that open a new scope: an assignment walk does not enter them.
SCOPES = (FuncItem, ClassDef, LambdaExpr, Decorator, OverloadedFuncDef)


def _attrs(cls: type, statements_only: bool) -> tuple[str, ...]:
    key = (cls, statements_only)
    found = _attr_cache.get(key)
    if found is None:
        have: set[str] = set(getattr(cls, "__mypyc_attrs__", ()))
        wanted = _STATEMENT_ATTRS if statements_only else _CHILD_ATTRS
        found = _attr_cache[key] = tuple(a for a in wanted if a in have)
    return found


def _nodes(value: object, out: list[Node]) -> None:
    if isinstance(value, (list, tuple)):
        for item in cast("Sequence[object]", value):
            _nodes(item, out)
    elif isinstance(value, Node) and not isinstance(value, (TypeInfo, Var)):
        out.append(value)


def children(node: Node, statements_only: bool = False) -> list[Node]:
    """The syntax nodes directly below ``node`` (statements only, if asked)."""
    out: list[Node] = []
    for attr in _attrs(type(node), statements_only):
        _nodes(getattr(node, attr), out)
    return out


def _add(
    out: Assignments,
    lvalue: Expression,
    rvalue: Expression | None,
    surely_run: tuple[int, int] | None = None,
    statement: tuple[tuple[int, int], tuple[int, int]] | None = None,
) -> None:
    if isinstance(lvalue, NameExpr) and isinstance(lvalue.node, Var):
        binding = Binding(lvalue.line, rvalue, surely_run, statement=statement)
        out.setdefault(lvalue.node, []).append(binding)
    elif isinstance(lvalue, (TupleExpr, ListExpr)):
        values: list[Expression] | None = None
        if isinstance(rvalue, (TupleExpr, ListExpr)) and len(rvalue.items) == len(lvalue.items):
            values = rvalue.items
        for i, item in enumerate(lvalue.items):
            _add(out, item, values[i] if values is not None else None, surely_run, statement)


def _span(node: Node) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A statement's (line, column) start and end, when mypy recorded its end."""
    if node.end_line is None or node.end_column is None:
        return None
    return (node.line, node.column), (node.end_line, node.end_column)


_END_OF_FILE = 1 << 30


def scope_assignments(owner: Node) -> Assignments:
    """Every assignment to a name in one scope, not entering nested scopes."""
    out: Assignments = {}
    owner_end = _END_OF_FILE if isinstance(owner, MypyFile) else (owner.end_line or _END_OF_FILE)
    # Each node with the last line of the block of statements around it.
    stack = [(child, owner_end) for child in children(owner)]
    while stack:
        node, block_end = stack.pop()
        if isinstance(node, SCOPES):
            continue
        # A statement of a block has surely run at the lines after it in that block.
        after = (node.end_line or node.line) + 1
        if isinstance(node, AssignmentStmt):
            for lvalue in node.lvalues:
                _add(out, lvalue, node.rvalue, (after, block_end), _span(node))
        elif isinstance(node, OperatorAssignmentStmt):
            # x op= y
            value = OpExpr(node.op, node.lvalue, node.rvalue)
            _add(out, node.lvalue, value, (after, block_end), _span(node))
        elif isinstance(node, AssignmentExpr):
            _add(out, node.target, node.value)
        elif isinstance(node, ForStmt):
            index = node.index
            if isinstance(index, NameExpr) and isinstance(index.node, Var):
                out.setdefault(index.node, []).append(Binding(index.line, None, iterable=node.expr))
            else:
                _add(out, index, None)
        elif isinstance(node, WithStmt):
            for target in node.target:
                if target is not None:
                    _add(out, target, None)
        if isinstance(node, Block):
            block_end = node.end_line or block_end
        stack.extend((child, block_end) for child in children(node))
    return out


class Fill(NamedTuple):
    """Something put into the list a name holds: ``name.append(value)``, ``name[i] = value``
    (``iterable`` False), ``name.extend(value)``, ``name[a:b] = value`` (True)."""

    line: int
    value: Expression | None  # None: a form not judged (`name.append(*items)`, `name[i] += x`)
    iterable: bool
    scope: Node  # the function (or module) the statement is in, to judge ``value`` there


# list methods that put items in: method -> (arguments it takes, the one put in, iterable?)
_FILLING_METHODS = {"append": (1, 0, False), "insert": (2, 1, False), "extend": (1, 0, True)}


def _list_name(expr: Expression) -> Var | None:
    return expr.node if isinstance(expr, NameExpr) and isinstance(expr.node, Var) else None


def list_fills(owner: Node) -> dict[Var, list[Fill]]:
    """What is put into lists held by names, in ``owner`` and the functions nested in it (a
    closure can fill its enclosing function's list)."""
    out: dict[Var, list[Fill]] = {}
    stack: list[tuple[Node, Node]] = [(child, owner) for child in children(owner)]
    while stack:
        node, scope = stack.pop()
        if isinstance(node, FuncItem):
            scope = node
        if isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr):
            var = _list_name(node.callee.expr)
            form = _FILLING_METHODS.get(node.callee.name)
            if var is not None and form is not None:
                count, index, iterable = form
                plain = len(node.args) == count and all(k == ARG_POS for k in node.arg_kinds)
                value = node.args[index] if plain else None
                out.setdefault(var, []).append(Fill(node.line, value, iterable, scope))
        elif isinstance(node, (AssignmentStmt, OperatorAssignmentStmt)):
            lvalues = node.lvalues if isinstance(node, AssignmentStmt) else [node.lvalue]
            for target in [t for t in lvalues if isinstance(t, IndexExpr)]:
                var = _list_name(target.base)
                if var is not None:
                    value = node.rvalue if isinstance(node, AssignmentStmt) else None
                    sliced = isinstance(target.index, SliceExpr)
                    out.setdefault(var, []).append(Fill(node.line, value, sliced, scope))
        stack.extend((child, scope) for child in children(node))
    return out


def declared_str(var: Var) -> bool:
    """A variable declared plain ``str`` (not LiteralString, not a union)."""
    declared = var.type
    if var.is_inferred or declared is None or is_marked(declared):
        return False
    p = get_proper_type(declared)
    return isinstance(p, Instance) and p.type.fullname == "builtins.str"


def parameter_binding(func: FuncItem) -> Binding:
    """A parameter's binding: its value unknown, surely run from the function's first line."""
    return Binding(func.line, None, (func.line, func.end_line or func.line))


def variable_of(expr: Expression, lookup: Callable[[Expression], Type | None]) -> Var | None:
    """The variable behind a name or an attribute (of an instance or a class)."""
    if isinstance(expr, RefExpr) and isinstance(expr.node, Var):
        return expr.node
    if isinstance(expr, MemberExpr):
        receiver = get_proper_type(lookup(expr.expr))
        info: TypeInfo | None = None
        if isinstance(receiver, Instance):
            info = receiver.type
        elif isinstance(receiver, CallableType) and receiver.is_type_obj():
            info = receiver.type_object()
        elif isinstance(receiver, TypeType) and isinstance(receiver.item, Instance):
            info = receiver.item.type
        symbol = info.get(expr.name) if info is not None else None
        if symbol is not None and isinstance(symbol.node, Var):
            return symbol.node
    return None


def walk_statements(root: Node) -> Iterator[tuple[Node, Node, FuncItem | None]]:
    """Every statement below ``root``, with its scope (function or module) and function."""
    stack: list[tuple[Node, Node, FuncItem | None]] = [(root, root, None)]
    while stack:
        node, scope, func = stack.pop()
        if isinstance(node, FuncItem):
            scope = func = node
        yield node, scope, func
        stack.extend((child, scope, func) for child in children(node, statements_only=True))
