"""The hooks mypy calls while it checks an expression.

- :func:`str_method_result`: PEP 675 Appendix C at the type level: a ``str`` method called on
  a literal string with literal arguments returns LiteralString.
- :func:`literal_overload_filter`: an overload item that takes LiteralString is made
  unmatchable when the argument is not literal, so mypy's own overload resolution falls through
  to the ``str`` item and infers the right return type (``os.path.join`` and the like).
"""

from __future__ import annotations

from mypy.argmap import map_actuals_to_formals
from mypy.checker import TypeChecker
from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    CallExpr,
    Expression,
    GeneratorExpr,
    IndexExpr,
    ListExpr,
    MemberExpr,
    Node,
    OpExpr,
    SetExpr,
    StrExpr,
    TupleExpr,
)
from mypy.plugin import FunctionSigContext, MethodContext, MethodSigContext
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    NoneType,
    Overloaded,
    TupleType,
    Type,
    TypeOfAny,
    UninhabitedType,
    UnionType,
    get_proper_type,
)

from typing_literalstring.mypy.in_fact import source_facts
from typing_literalstring.mypy.literal_types import STR_METHODS, iterable_of_literals
from typing_literalstring.mypy.literals import Literalness
from typing_literalstring.mypy.marker import (
    accepts,
    compatible,
    is_literal_type,
    is_str,
    is_unchecked_any,
    maps_every_argument,
    mark,
    requires_literal,
    without_strings,
)


def _receiver(method: str, ctx: MethodContext) -> Expression | None:
    """The expression the method is called on (ctx.type has lost the marker)."""
    node = ctx.context
    if isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr):
        return node.callee.expr
    if isinstance(node, OpExpr):
        return node.right if method == "__rmul__" else node.left
    if isinstance(node, IndexExpr):
        return node.base
    return None


def _is_literal(checker: TypeChecker, expr: Expression) -> bool:
    return isinstance(expr, StrExpr) or is_literal_type(checker.lookup_type_or_none(expr))


def str_method_result(method: str, ctx: MethodContext) -> Type:
    """LiteralString when the receiver and the arguments that matter are literal."""
    checker = ctx.api
    receiver = _receiver(method, ctx)
    if not isinstance(checker, TypeChecker) or receiver is None:
        return ctx.default_return_type
    if not _is_literal(checker, receiver):
        return ctx.default_return_type
    needed = STR_METHODS[method]
    for formal, (types, exprs) in enumerate(zip(ctx.arg_types, ctx.args)):
        name = ctx.callee_arg_names[formal] if formal < len(ctx.callee_arg_names) else None
        for t, expr in zip(types, exprs):
            if method == "join":
                if isinstance(expr, (ListExpr, TupleExpr, SetExpr)):
                    ok = all(_is_literal(checker, item) for item in expr.items)
                elif isinstance(expr, GeneratorExpr):
                    ok = _is_literal(checker, expr.left_expr)
                else:
                    ok = iterable_of_literals(t)
            elif "*" in needed or name in needed:
                p = get_proper_type(t)
                if method == "__mod__" and isinstance(p, TupleType):
                    ok = all(is_literal_type(i) for i in p.items)
                else:
                    ok = is_literal_type(t) or (method != "format" and isinstance(p, NoneType))
            else:
                ok = True
            if not ok:
                return ctx.default_return_type
    return mark(ctx.default_return_type)


def literal_overload_filter(
    ctx: FunctionSigContext | MethodSigContext, disallow_any: bool = False
) -> FunctionLike:
    """Make an overload item that takes LiteralString unmatchable for a call whose argument
    there is a non-literal string (or, with ``disallow_any``, a value of type Any)."""
    signature = ctx.default_signature
    if not any(requires_literal(t) for t in signature.arg_types):
        return signature
    checker = ctx.api
    call = ctx.context
    if not isinstance(checker, TypeChecker) or not isinstance(call, CallExpr):
        return signature
    overloaded = get_proper_type(checker.lookup_type_or_none(call.callee))
    if not isinstance(overloaded, Overloaded):
        return signature  # a plain function: the post-pass checks its arguments
    arg_types = list(signature.arg_types)
    for formal, actuals in enumerate(ctx.args):
        if requires_literal(arg_types[formal]):
            for actual in actuals:
                _infer_quietly(checker, actual)
    literals = Literalness(
        checker.lookup_type_or_none, source_facts(checker.tree.path, checker.options)
    )
    scope = checker.scope.top_level_function() or checker.tree
    changed = False
    for formal, actuals in enumerate(ctx.args):
        if requires_literal(arg_types[formal]) and any(
            _unfit(literals, arg_types[formal], a, scope, disallow_any) for a in actuals
        ):
            arg_types[formal] = UninhabitedType()
            changed = True
    if not changed:
        return signature
    for actuals in ctx.args:  # the other items are judged on every argument
        for actual in actuals:
            _infer_quietly(checker, actual)
    if not any(
        _fits(literals, item, call, scope, disallow_any)
        for item in overloaded.items
        if item != signature
    ):
        # Made unmatchable, it would leave no item: mypy would say "No overload variant" and
        # type the call Any (a `no-any-return` error mypy alone does not give).  Kept, mypy
        # takes it with the right return type, and the post-pass reports the argument.
        KEPT_ITEMS[id(call)] = call
        return signature
    return signature.copy_modified(arg_types=arg_types)  # pyright: ignore[reportUnknownMemberType]


# Calls whose LiteralString item the hook left matchable, for the module's post-pass.
KEPT_ITEMS: dict[int, CallExpr] = {}


def _fits(
    literals: Literalness, item: CallableType, call: CallExpr, scope: Node, disallow_any: bool
) -> bool:
    """Would ``item`` take the call, a non-literal string refused where it wants one?"""
    formals = map_actuals_to_formals(
        call.arg_kinds,
        call.arg_names,
        item.arg_kinds,
        item.arg_names,
        lambda i: literals.known_type(call.args[i]) or AnyType(TypeOfAny.special_form),
    )
    if any(not actuals and item.arg_kinds[i].is_required() for i, actuals in enumerate(formals)):
        return False
    if not maps_every_argument(call, formals):
        return False
    for formal, actuals in enumerate(formals):
        expected = item.arg_types[formal]
        for actual in actuals:
            arg = call.args[actual]
            if call.arg_kinds[actual] == ARG_STAR:
                continue  # `*args`: its items' count is unknown, as for mypy
            if call.arg_kinds[actual] == ARG_STAR2:
                return False
            if not accepts(expected, literals.known_type(arg)):
                return False
            if requires_literal(expected) and _unfit(literals, expected, arg, scope, disallow_any):
                return False
    return True


def _infer_quietly(checker: TypeChecker, arg: Expression) -> None:
    """Infer an argument's type before mypy does, its errors discarded (mypy reports them when
    it infers the argument itself, right after this hook).

    This hook runs before mypy infers the call's arguments.  Judged unknown, psycopg 3's
    ``execute(sql.SQL(...).format(...))`` or a call of a ``-> LiteralString`` function had
    its LiteralString item made unmatchable: "No overload variant" on correct code.
    """
    if checker.lookup_type_or_none(arg) is None:
        with checker.msg.filter_errors():
            checker.expr_checker.accept(arg)


def _unfit(
    literals: Literalness, formal: Type, arg: Expression, scope: Node, disallow_any: bool
) -> bool:
    """Does ``arg`` break the LiteralString requirement of an overload item's parameter?"""
    if disallow_any and is_unchecked_any(literals.known_type(arg)):
        return True  # `subprocess.run(json.loads(raw)["cmd"], shell=True)`
    if literals.is_literal(arg, scope):
        return False
    if isinstance(arg, (ListExpr, TupleExpr, SetExpr)):  # e.g. `LiteralString | Sequence[...]`
        return not all(
            literals.is_literal(item, scope) or not _maybe_str(literals.known_type(item))
            for item in arg.items
        )
    known = literals.known_type(arg)
    if known is None or is_str(known):
        return True  # a string, or not known yet: the `str` item must take it
    rest = without_strings(formal)
    return rest is not None and not compatible(known, rest)


def _maybe_str(t: Type | None) -> bool:
    return t is None or is_str(t) or isinstance(get_proper_type(t), UnionType)
