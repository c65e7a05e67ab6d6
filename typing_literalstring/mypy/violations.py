"""The core of the post-pass: whether an expression violates an expected type that holds
LiteralString, and the checks of a call's arguments against its declared signature, which the
other checks (statements, overloads) build on."""

from __future__ import annotations

from mypy.argmap import map_actuals_to_formals
from mypy.checker import TypeChecker
from mypy.expandtype import expand_type_by_instance
from mypy.maptype import map_instance_to_supertype
from mypy.messages import callable_name
from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    CallExpr,
    Context,
    Decorator,
    DictExpr,
    Expression,
    FakeInfo,
    FuncDef,
    FuncItem,
    ListExpr,
    MemberExpr,
    MypyFile,
    Node,
    RefExpr,
    SetExpr,
    TupleExpr,
    TypeInfo,
)
from mypy.subtypes import is_subtype
from mypy.typeops import type_object_type
from mypy.types import (
    CallableType,
    Instance,
    Overloaded,
    TupleType,
    Type,
    UnionType,
    get_proper_type,
)

from typing_literalstring.mypy.in_fact import source_facts
from typing_literalstring.mypy.literal_types import any_type
from typing_literalstring.mypy.literals import Literalness
from typing_literalstring.mypy.marker import (
    LITERAL_STRING,
    Substitution,
    bad_type_arguments,
    compatible,
    contains_mark,
    describe,
    has_type_variables,
    invariance_breach,
    is_unchecked_any,
    requires_literal,
    substitute,
    unify,
    without_strings,
)
from typing_literalstring.mypy.settings import Settings
from typing_literalstring.mypy.walk import variable_of


def callee_name(signature: CallableType) -> str:
    """``"execute" of "Cursor"``, as mypy's messages name a callee."""
    return callable_name(signature) or '"function"'


# Read-only iterables: one of literal strings may stand where one of LiteralString is expected
# (a list may not: list[str] is not list[LiteralString], as pyright says too).
_COVARIANT_ITERABLES = frozenset(
    (
        "typing.Iterable",
        "typing.Iterator",
        "typing.Collection",
        "typing.Sequence",
        "typing.Reversible",
        "typing.AbstractSet",
        "builtins.tuple",
        "builtins.frozenset",
    )
)


class Violations:
    """One module's state for the post-pass, and the question every check asks of it."""

    def __init__(
        self, checker: TypeChecker, tree: MypyFile, settings: Settings | None = None
    ) -> None:
        self.checker = checker
        self.tree = tree
        self.settings = settings or Settings()
        self.types = checker._type_maps[0]  # pyright: ignore[reportPrivateUsage]
        self.options = checker.options
        self.literals = Literalness(self.types.get, source_facts(tree.path, checker.options))
        self.functions: list[tuple[int, int, int, FuncItem]] = []
        self.done: set[int] = set()  # calls already checked in context
        self.overloaded_calls: list[tuple[CallExpr, Overloaded]] = []

    def fail(self, message: str, context: Context) -> None:
        self.checker.fail(message, context, code=LITERAL_STRING)

    def describe(self, t: Type | None) -> str:
        return describe(t, self.options)

    def scope_of(self, expr: Expression) -> Node:
        """The innermost function around ``expr`` (by lines), or the module."""
        best: Node = self.tree
        best_depth = 0
        for start, end, depth, func in self.functions:
            if start <= expr.line <= end and depth > best_depth:
                best, best_depth = func, depth
        return best

    # -- the rule -------------------------------------------------------------------------
    def violates(self, expected: Type, expr: Expression, scope: Node) -> bool:
        """Does ``expr`` put a non-literal string where ``expected`` wants LiteralString?"""
        if requires_literal(expected):
            if self.literals.is_literal(expr, scope):
                return False
            actual = self.types.get(expr)
            if self.settings.disallow_any and is_unchecked_any(actual):
                return True
            if not compatible(actual, expected):
                return True
            # Not a string: held to the rest of the union (`LiteralString | Sequence[...]`).
            rest = without_strings(expected)
            return rest is not None and self.violates(rest, expr, scope)
        if not contains_mark(expected):
            return False
        if isinstance(expr, CallExpr):
            verdict = self.check_generic_call_in_context(expr, expected, scope)
            if verdict is not None:
                return verdict
        e = get_proper_type(expected)
        if isinstance(e, UnionType):
            # `Sequence[LiteralString] | None` (Django's extra(where=...)): an argument that
            # fits a member without the mark is fine; else it must fit a marked one.
            actual = self.types.get(expr)
            marked = [m for m in e.items if contains_mark(m)]
            if actual is None or any(
                is_subtype(actual, m) for m in e.items if not contains_mark(m)
            ):
                return False
            return all(self.violates(m, expr, scope) for m in marked)
        if isinstance(e, Instance):
            if isinstance(expr, (ListExpr, SetExpr, TupleExpr)) and len(e.args) == 1:
                return any(self.violates(e.args[0], item, scope) for item in expr.items)
            if isinstance(expr, DictExpr) and len(e.args) == 2:
                return any(
                    (key is not None and self.violates(e.args[0], key, scope))
                    or self.violates(e.args[1], value, scope)
                    for key, value in expr.items
                )
        if (
            isinstance(e, TupleType)
            and isinstance(expr, TupleExpr)
            and len(expr.items) == len(e.items)
        ):
            return any(self.violates(t, item, scope) for t, item in zip(e.items, expr.items))
        if (
            isinstance(e, Instance)
            and e.type.fullname in _COVARIANT_ITERABLES
            and len(e.args) == 1
            and requires_literal(e.args[0])
            and self.literals.literal_items(expr, scope)
        ):
            # `pick(col, ALLOWED)` with `ALLOWED = ("a", "b")`: mypy typed the constant
            # `tuple[str, ...]` where this module uses it; its items are literals.
            return False
        return not compatible(self.types.get(expr), expected)

    # -- calls ------------------------------------------------------------------------------
    def declared_signature(self, call: CallExpr) -> CallableType | None:
        """The callee's signature before type-variable inference."""
        node = call.callee.node if isinstance(call.callee, RefExpr) else None
        if isinstance(node, Decorator):
            node = node.func
        declared = None
        if isinstance(node, TypeInfo):
            declared = get_proper_type(type_object_type(node, self.checker.named_type))
        elif isinstance(node, FuncDef):
            declared = get_proper_type(node.type)
        return declared if isinstance(declared, CallableType) else None

    def formals(self, call: CallExpr, signature: CallableType) -> list[list[int]]:
        """For each parameter of ``signature``, the arguments of ``call`` that fill it."""
        return map_actuals_to_formals(
            call.arg_kinds,
            call.arg_names,
            signature.arg_kinds,
            signature.arg_names,
            lambda i: self.types.get(call.args[i]) or any_type(),
        )

    def check_arguments(
        self,
        call: CallExpr,
        signature: CallableType,
        named: CallableType,
        scope: Node,
        reported: set[int],
        subst: Substitution | None = None,
        *,
        invariance: bool = False,
    ) -> None:
        formals = self.formals(call, signature)
        for formal, actuals in enumerate(formals):
            expected = signature.arg_types[formal]
            if subst is not None:
                expected = substitute(expected, subst)
            for actual in actuals:
                if actual in reported or call.arg_kinds[actual] in (ARG_STAR, ARG_STAR2):
                    continue
                arg = call.args[actual]
                if self.violates(expected, arg, scope) or (
                    invariance and self.invariance_breach(expected, arg)
                ):
                    reported.add(actual)
                    self.fail(
                        f"Argument {actual + 1} to {callee_name(named)} has incompatible type "
                        f'"{self.describe(self.types.get(arg))}"; expected '
                        f'"{self.describe(expected)}"',
                        arg,
                    )

    def check_generic_call_in_context(
        self, call: CallExpr, expected: Type, scope: Node
    ) -> bool | None:
        """mypy's solver drops the marker (T := str): redo the inference from the context."""
        declared = self.declared_signature(call)
        if declared is None or not declared.variables:
            return None
        subst: Substitution = {}
        if not unify(declared.ret_type, expected, subst) or not subst:
            return None
        self.check_arguments(call, declared, declared, scope, set(), subst)
        self.done.add(id(call))
        return False  # the arguments' errors (if any) are reported already

    # -- assignments and returns ------------------------------------------------------------
    def declared_type(self, lvalue: Expression) -> Type | None:
        """The declared type of an assignment target (an attribute's, for its receiver)."""
        var = variable_of(lvalue, self.types.get)
        if var is None or var.type is None:
            return None
        receiver = (
            get_proper_type(self.types.get(lvalue.expr)) if isinstance(lvalue, MemberExpr) else None
        )
        if (
            isinstance(receiver, Instance)
            # A variable outside any class has mypy's placeholder info, which has no name.
            and not isinstance(var.info, FakeInfo)
            and receiver.type.has_base(var.info.fullname)
            and has_type_variables(var.type)
        ):
            # `box.content = user` with `box: Box[LiteralString]` and `content: T`.
            return expand_type_by_instance(var.type, map_instance_to_supertype(receiver, var.info))
        return None if var.is_inferred else var.type

    def check_type_arguments(self, t: Type | None, context: Context) -> None:
        """``LiteralBox[str]`` where ``LiteralBox``'s TypeVar is bound to LiteralString."""
        for arg, generic, bound in bad_type_arguments(t) if t is not None else ():
            self.fail(
                f'Type argument "{self.describe(arg)}" of "{generic.type.name}" must be a subtype '
                f'of "{self.describe(bound)}"',
                context,
            )

    def holds_mark(self, expr: Expression) -> bool:
        """Is ``expr`` a variable declared with LiteralString in its type?"""
        var = variable_of(expr, self.types.get) if isinstance(expr, RefExpr) else None
        return var is not None and not var.is_inferred and contains_mark(var.type or any_type())

    def invariance_breach(self, expected: Type, expr: Expression) -> bool:
        """A declared ``list[LiteralString]`` given where ``list[str]`` is wanted."""
        return self.holds_mark(expr) and invariance_breach(self.types.get(expr), expected)
