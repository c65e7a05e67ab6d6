"""PEP 675's inference rules: is an expression a literal string?

mypy infers ``str`` for most of what PEP 675 calls LiteralString (``q = "a"; q += "b"``,
``"a" + lit``, ``", ".join(lits)``...), so the plugin decides from the syntax tree and the types
mypy inferred, following the PEP: literals, names whose every assignment in their scope is
literal, and ``+``, ``%``, ``*``, conditional expressions, f-strings and the Appendix C ``str``
methods applied to literal strings only.
"""

from __future__ import annotations

from typing import Callable

from mypy.argmap import map_actuals_to_formals
from mypy.nodes import (
    ARG_POS,
    GDEF,
    LDEF,
    AssignmentExpr,
    CallExpr,
    ConditionalExpr,
    Expression,
    FuncItem,
    GeneratorExpr,
    IndexExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OpExpr,
    RefExpr,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StrExpr,
    TupleExpr,
    Var,
)
from mypy.types import (
    CallableType,
    Instance,
    NoneType,
    Overloaded,
    Type,
    get_proper_type,
)

from typing_literalstring.mypy.in_fact import InFact
from typing_literalstring.mypy.literal_types import (
    LITERAL_CALLS,
    SAME_ITEMS,
    STR_METHODS,
    TypeLookup,
    any_type,
    constant_type,
    declared_function,
    is_int,
    iterable_of_literals,
)
from typing_literalstring.mypy.marker import (
    Substitution,
    is_literal_type,
    is_marked,
    is_str,
    literal_string,
    requires_literal,
    substitute,
    unify,
)
from typing_literalstring.mypy.narrowing import Region, is_narrowed, loops, regions
from typing_literalstring.mypy.walk import (
    Binding,
    Fill,
    declared_str,
    list_fills,
    parameter_binding,
    scope_assignments,
    variable_of,
)


class _Scope:
    """What the literal rules need of one scope (a function or module), each found once."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.assignments = scope_assignments(node)
        self._regions: list[Region] | None = None
        self._loops: list[tuple[int, int]] | None = None
        self._fills: dict[Var, list[Fill]] | None = None

    @property
    def regions(self) -> list[Region]:
        if self._regions is None:
            self._regions = regions(self.node)
        return self._regions

    @property
    def loops(self) -> list[tuple[int, int]]:
        if self._loops is None:
            self._loops = loops(self.node)
        return self._loops

    @property
    def fills(self) -> dict[Var, list[Fill]]:
        if self._fills is None:
            self._fills = list_fills(self.node)
        return self._fills

    def in_loop(self, line: int) -> bool:
        return any(first <= line <= last for first, last in self.loops)


class Literalness:
    """Decides whether expressions are literal strings, remembering each scope's assignments.

    ``in_fact`` is asked about an expression these rules find not literal: the judge of
    literal-in-fact idioms that every checker shares (``in_fact.py``)."""

    def __init__(self, lookup: TypeLookup, in_fact: InFact | None = None) -> None:
        self.lookup = lookup
        self.in_fact = in_fact
        self._scopes: dict[int, _Scope] = {}
        self._in_progress: set[int] = set()  # ids of assigned values being judged

    def _scope(self, scope: Node) -> _Scope:
        found = self._scopes.get(id(scope))
        if found is None or found.node is not scope:
            found = self._scopes[id(scope)] = _Scope(scope)
        return found

    def is_literal(self, expr: Expression | None, scope: Node) -> bool:
        if expr is None:
            return False
        if self._inferred(expr, scope):
            return True
        return self.in_fact is not None and self.in_fact(expr)

    def _inferred(self, expr: Expression, scope: Node) -> bool:
        """PEP 675's inference, and pyright's where PEP 675 is silent."""
        if isinstance(expr, StrExpr):
            return True
        if is_literal_type(self.lookup(expr)):
            return True
        if (
            isinstance(expr, NameExpr)
            and isinstance(expr.node, Var)
            and self._narrowed(expr, expr.node, scope)
        ):
            return True
        if isinstance(expr, RefExpr):
            var = variable_of(expr, self.lookup)
            if var is not None and var.is_inferred and is_marked(var.type):
                return True  # a module or class name that only holds literals (constants.py)
            if var is not None and not var.is_inferred and var.type is not None:
                # Declared LiteralString: each assignment to it is checked on its own, so a
                # narrowing to str after a (reported) bad assignment is not reported again.
                if requires_literal(var.type):
                    return True
                if not (isinstance(expr, NameExpr) and declared_str(var)):
                    return False
        if isinstance(expr, NameExpr) and isinstance(expr.node, Var):
            return self._name(expr, expr.node, scope)
        if isinstance(expr, OpExpr):
            return self._operation(expr, scope)
        if isinstance(expr, ConditionalExpr):
            return self.is_literal(expr.if_expr, scope) and self.is_literal(expr.else_expr, scope)
        if isinstance(expr, AssignmentExpr):
            return self.is_literal(expr.value, scope)
        if isinstance(expr, IndexExpr):
            return self._index(expr, scope)
        if isinstance(expr, CallExpr):
            returned = self.call_return_type(expr, scope)
            if returned is not None and is_literal_type(returned):
                return True
            return self._generic_call(expr) or self._str_method_call(expr, scope)
        return False

    def _narrowed(self, expr: NameExpr, var: Var, scope: Node) -> bool:
        """A comparison with literal strings narrows the name here (narrowing.py)."""
        facts = self._scope(scope)
        return is_narrowed(expr, var, facts.regions, facts.assignments.get(var, []))

    def known_type(self, expr: Expression) -> Type | None:
        """The inferred type, or else a variable's declared type (before mypy infers ``expr``)."""
        inferred = self.lookup(expr)
        if inferred is not None:
            return inferred
        var = variable_of(expr, self.lookup) if isinstance(expr, RefExpr) else None
        return var.type if var is not None and not var.is_inferred else None

    def _generic_call(self, call: CallExpr) -> bool:
        """``first(lits)`` with ``first(items: List[T]) -> T``: mypy's solver gives ``T = str``
        (it drops the marker), so solve for the return type again from the arguments."""
        declared = declared_function(call)
        if declared is None or not declared.variables:
            return False
        formals = map_actuals_to_formals(
            call.arg_kinds,
            call.arg_names,
            declared.arg_kinds,
            declared.arg_names,
            lambda i: self.lookup(call.args[i]) or any_type(),
        )
        subst: Substitution = {}
        for formal, actuals in enumerate(formals):
            for actual in actuals:
                found = self.lookup(call.args[actual])
                if found is not None:
                    unify(declared.arg_types[formal], found, subst)
        return bool(subst) and is_literal_type(substitute(declared.ret_type, subst))

    def _reaching(self, expr: NameExpr, var: Var, scope: Node) -> list[Binding]:
        """The assignments to an inferred local (or module-level) name that may reach ``expr``
        (none for other names).  A name declared ``str`` counts too: pyright narrows it to
        what was assigned (``query: str = "..."; query += "..."``), its parameter's value
        included (a binding of unknown value at the top of the function)."""
        local = expr.kind == (GDEF if isinstance(scope, MypyFile) else LDEF)
        if not local or not (var.is_inferred or declared_str(var)):
            return []
        facts = self._scope(scope)
        bindings = facts.assignments.get(var, [])
        if isinstance(scope, FuncItem) and any(a.variable is var for a in scope.arguments):
            bindings = [parameter_binding(scope), *bindings]
        if not facts.in_loop(expr.line):
            # `y = "a"; sink(y); y = user`: without a loop around the use, an assignment
            # further down cannot reach it, and `y = user; y = "a"; sink(y)`: one that has
            # surely run hides the earlier ones (pyright's flow analysis agrees).  An
            # assignment does not reach a use in its own statement: `q = f(q)` and `q += x`
            # read the value q had before.
            bindings = [b for b in bindings if b.line <= expr.line and not b.holds(expr)]
            last = max((b.line for b in bindings if b.dominates(expr.line)), default=0)
            bindings = [b for b in bindings if b.line >= last]
        return bindings

    def _name(self, expr: NameExpr, var: Var, scope: Node) -> bool:
        """An inferred local (or module-level) name: literal if every assignment is (a ``for``
        target: if every item of its iterable is)."""
        assigned = self._reaching(expr, var, scope)
        return bool(assigned) and self._all_assigned(
            assigned, lambda v: self.is_literal(v, scope), scope
        )

    def _all_assigned(
        self, assigned: list[Binding], judge: Callable[[Expression], bool], scope: Node
    ) -> bool:
        """Does ``judge`` hold for every assigned value?  A value met again while it is being
        judged (`q = q + "..."` in a loop) holds: the greatest fixed point."""
        for binding in assigned:
            value = binding.value if binding.value is not None else binding.iterable
            if value is None:
                return False  # a target the walk cannot see into (`with ... as x`, unpacking)
            if id(value) in self._in_progress:
                continue
            self._in_progress.add(id(value))
            try:
                if binding.value is not None and not judge(value):
                    return False
                if binding.value is None and not self.literal_items(value, scope):
                    return False
            finally:
                self._in_progress.discard(id(value))
        return True

    def _operation(self, expr: OpExpr, scope: Node) -> bool:
        if expr.op == "+":
            return self.is_literal(expr.left, scope) and self.is_literal(expr.right, scope)
        if expr.op == "%":
            right = expr.right
            items = right.items if isinstance(right, TupleExpr) else [right]
            return self.is_literal(expr.left, scope) and all(
                self.is_literal(i, scope) for i in items
            )
        if expr.op == "*":
            return self.is_literal(expr.left, scope) or self.is_literal(expr.right, scope)
        if expr.op == "or":
            # `flag and "1" or "0"`: the left operand is the value only when it is truthy,
            # and a non-empty literal always is (`"b" or user` is "b").
            if not self._truthy_literal(expr.left, scope):
                return False
            always = isinstance(expr.left, StrExpr) and bool(expr.left.value)
            return always or self.is_literal(expr.right, scope)
        if expr.op == "and":
            return self.is_literal(expr.left, scope) and self.is_literal(expr.right, scope)
        return False

    def _truthy_literal(self, expr: Expression, scope: Node) -> bool:
        """Is every truthy value of ``expr`` a literal string?  ``a and "1"`` is truthy only
        as "1" (when ``a`` is falsy, it is ``a``: falsy), whatever ``a`` is; ``None`` never
        is.  pyright 1.1.414 agrees, but for an ``a`` of type ``object``."""
        if isinstance(expr, OpExpr) and expr.op == "and":
            return self._truthy_literal(expr.right, scope)
        if isinstance(expr, OpExpr) and expr.op == "or":
            return self._truthy_literal(expr.left, scope) and self._truthy_literal(
                expr.right, scope
            )
        if isinstance(expr, ConditionalExpr):
            return self._truthy_literal(expr.if_expr, scope) and self._truthy_literal(
                expr.else_expr, scope
            )
        return self.is_literal(expr, scope) or isinstance(
            get_proper_type(self.lookup(expr)), NoneType
        )

    def _index(self, expr: IndexExpr, scope: Node) -> bool:
        method = get_proper_type(expr.method_type)
        if isinstance(method, CallableType) and is_literal_type(method.ret_type):
            return True
        base = get_proper_type(self.lookup(expr.base))
        if not isinstance(base, Instance):
            return False
        if (
            base.type.fullname in ("builtins.list", "builtins.tuple")
            and not isinstance(expr.index, SliceExpr)
            and base.args
            and is_literal_type(base.args[0])
        ):
            return True
        return base.type.fullname == "builtins.str" and self.is_literal(expr.base, scope)

    def _str_method_call(self, expr: CallExpr, scope: Node) -> bool:
        """Appendix C: ``lit.upper()``, ``", ".join(lits)``, ``"{}".format(lit)``..."""
        if not isinstance(expr.callee, MemberExpr):
            return False
        name = expr.callee.name
        receiver = expr.callee.expr
        if name not in STR_METHODS:
            return False
        if not isinstance(receiver, StrExpr) and not is_str(self.lookup(receiver) or any_type()):
            return False
        if not self.is_literal(receiver, scope):
            return False
        needed = STR_METHODS[name]
        for arg in expr.args:
            if name == "join":
                ok = self.literal_items(arg, scope)
            elif "*" in needed:
                ok = self.is_literal(arg, scope) or isinstance(
                    get_proper_type(self.lookup(arg)), NoneType
                )
            else:
                # Every string argument (fillchar, sep, old, new...) must be literal; widths,
                # counts and None do not matter.
                ok = self.is_literal(arg, scope) or not is_str(self.lookup(arg) or any_type())
            if not ok:
                return False
        return True

    def literal_items(self, expr: Expression, scope: Node) -> bool:
        """Is every item of the iterable ``expr`` a literal string (a ``join`` argument)?"""
        if isinstance(expr, (ListExpr, TupleExpr, SetExpr)):
            return all(self.is_literal(x, scope) for x in expr.items)
        if isinstance(expr, GeneratorExpr):
            return self.is_literal(expr.left_expr, scope)
        if isinstance(expr, OpExpr) and expr.op == "+":
            # `lits + [user]`: mypy types the display in the context of the left operand, so
            # the sum looks like `list[LiteralString]`; judge each operand instead.
            return self.literal_items(expr.left, scope) and self.literal_items(expr.right, scope)
        if isinstance(expr, OpExpr) and expr.op == "*":
            # `(marker,) * count`: the items of the sequence operand, repeated.
            counts = is_int(self.lookup(expr.left))
            return self.literal_items(expr.right if counts else expr.left, scope)
        if (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, RefExpr)
            and expr.callee.fullname in SAME_ITEMS
            and expr.arg_kinds[:1] in ([], [ARG_POS])
        ):
            # `tuple(lits)`, `sorted(lits)`: mypy solves the item type to str; the items are
            # those of the argument.
            return not expr.args or self.literal_items(expr.args[0], scope)
        if isinstance(expr, NameExpr) and isinstance(expr.node, Var):
            assigned = self._reaching(expr, expr.node, scope)
            if assigned and all(b.value is not None for b in assigned):
                # `cols = lits + [user]`: judge what was assigned, not the inferred type (a
                # loop target's items are not in the tree: its type decides).
                return self._all_assigned(
                    assigned, lambda v: self._held_items(v, expr, scope), scope
                )
        return iterable_of_literals(self.lookup(expr)) or iterable_of_literals(constant_type(expr))

    def _held_items(self, value: Expression, name: NameExpr, scope: Node) -> bool:
        """Are the items of ``value``, once assigned to ``name``, literal strings?  pyright
        widens a list or set display to `list[str]` there (`cols = ["a"]`), but keeps a
        tuple's."""
        if isinstance(value, ListExpr) and not value.items and isinstance(name.node, Var):
            # `parts = []`: pyright types it `list[Unknown]`, so `" AND ".join(parts)` passes a
            # LiteralString parameter; mypy takes `list[str]` from the first append.  Judge
            # what is put into the list instead (pyright passes a non-literal item too).
            return self._filled_literally(name, name.node, scope)
        if isinstance(value, (ListExpr, SetExpr, ListComprehension, SetComprehension)):
            return False
        return self.literal_items(value, scope)

    def _filled_literally(self, name: NameExpr, var: Var, scope: Node) -> bool:
        """Is every item put into ``var``'s list (append, insert, extend, item and slice
        assignment) a literal string?  Outside a loop, only what comes before ``name``."""
        facts = self._scope(scope)
        fills = facts.fills.get(var, [])
        if not facts.in_loop(name.line):
            fills = [f for f in fills if f.line <= name.line]
        return all(
            fill.value is not None
            and (
                self.literal_items(fill.value, fill.scope)
                if fill.iterable
                else self.is_literal(fill.value, fill.scope)
            )
            for fill in fills
        )

    def call_return_type(self, expr: CallExpr, scope: Node) -> Type | None:
        """The callee's return type as declared (mypy stores call results alias-expanded)."""
        if expr in LITERAL_CALLS:
            return literal_string()  # an unannotated function returning only literals
        callee = get_proper_type(self.lookup(expr.callee))
        if isinstance(callee, CallableType):
            return callee.ret_type
        if isinstance(callee, Overloaded):
            # The item the signature hook lets mypy pick: the first one that fits.
            for item in callee.items:
                formals = map_actuals_to_formals(
                    expr.arg_kinds,
                    expr.arg_names,
                    item.arg_kinds,
                    item.arg_names,
                    lambda i: self.lookup(expr.args[i]) or any_type(),
                )
                if any(
                    not actuals and item.arg_kinds[i].is_required()
                    for i, actuals in enumerate(formals)
                ):
                    continue
                if len({a for actuals in formals for a in actuals}) != len(expr.args):
                    continue
                if all(
                    not requires_literal(item.arg_types[i])
                    or all(self.is_literal(expr.args[a], scope) for a in actuals)
                    for i, actuals in enumerate(formals)
                ):
                    return item.ret_type
        return None
