"""The tables and type facts the literal rules (``literals.py``) read: PEP 675 Appendix C's
``str`` methods, the calls whose inferred return type is LiteralString, and small questions
about mypy's types (an int, an iterable of literal strings, a constant's marked type, a
function's signature as written).
"""

from __future__ import annotations

from typing import Callable, Mapping

from mypy.maptype import map_instance_to_supertype
from mypy.nodes import CallExpr, Decorator, Expression, FuncDef, RefExpr, Var
from mypy.types import AnyType, CallableType, Instance, TupleType, Type, TypeOfAny, get_proper_type

from typing_literalstring.mypy.marker import is_literal_type

# PEP 675 Appendix C (as typeshed fixed it): the str methods whose result is LiteralString when
# the receiver is.  Value: the parameters that must be literal too ("*": every argument);
# arguments of other types (widths, counts) do not matter.
STR_METHODS: Mapping[str, tuple[str, ...]] = {
    **dict.fromkeys(
        (
            "capitalize",
            "casefold",
            "lower",
            "upper",
            "swapcase",
            "title",
            "expandtabs",
            "zfill",
            "splitlines",
            "__mul__",
            "__rmul__",
            "__getitem__",
            "__iter__",
            "__str__",
            "__repr__",
        ),
        (),
    ),
    **dict.fromkeys(("center", "ljust", "rjust"), ("fillchar",)),
    **dict.fromkeys(("strip", "lstrip", "rstrip"), ("chars",)),
    **dict.fromkeys(("split", "rsplit", "partition", "rpartition"), ("sep",)),
    "replace": ("old", "new"),
    "removeprefix": ("prefix",),
    "removesuffix": ("suffix",),
    "__add__": ("*",),
    "__mod__": ("*",),
    "join": ("*",),
    "format": ("*",),
}
TypeLookup = Callable[[Expression], "Type | None"]
# The calls of the project's unannotated functions whose inferred return type is LiteralString
# (returns.py): mypy records a call's type with the alias expanded (`str`), and the callee's
# signature says Any.
LITERAL_CALLS: set[Expression] = set()
# Builtins whose result holds the items of their one argument.
SAME_ITEMS = frozenset(
    f"builtins.{name}"
    for name in ("tuple", "list", "set", "frozenset", "sorted", "reversed", "iter")
)


def is_int(t: Type | None) -> bool:
    p = get_proper_type(t)
    return isinstance(p, Instance) and p.type.fullname in ("builtins.int", "builtins.bool")


def any_type() -> Type:
    return AnyType(TypeOfAny.special_form)


def iterable_of_literals(t: Type | None) -> bool:
    """An iterable whose items are literal strings (``list[LiteralString]``, a tuple of them)."""
    p = get_proper_type(t)
    if isinstance(p, TupleType):
        return all(is_literal_type(i) for i in p.items)
    if isinstance(p, Instance) and p.args:
        for base in p.type.mro:
            if base.fullname == "typing.Iterable":
                return is_literal_type(map_instance_to_supertype(p, base).args[0])
    return False


def constant_type(expr: Expression) -> Type | None:
    """The type of a module or class constant that constants.py marked (mypy recorded the
    unmarked type where the module used it before the post-pass)."""
    var = expr.node if isinstance(expr, RefExpr) else None
    return var.type if isinstance(var, Var) and var.is_inferred else None


def declared_function(call: CallExpr) -> CallableType | None:
    """The signature of the called function as written (before type-variable inference)."""
    node = call.callee.node if isinstance(call.callee, RefExpr) else None
    if isinstance(node, Decorator):
        node = node.func
    declared = get_proper_type(node.type) if isinstance(node, FuncDef) else None
    return declared if isinstance(declared, CallableType) else None


__all__ = [
    "LITERAL_CALLS",
    "SAME_ITEMS",
    "STR_METHODS",
    "TypeLookup",
    "any_type",
    "constant_type",
    "declared_function",
    "is_int",
    "iterable_of_literals",
]
