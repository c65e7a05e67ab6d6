"""The LiteralString marker, and what the plugin asks of a type.

Inside mypy, ``LiteralString`` is the *unexpanded* :class:`TypeAliasType` of the
``typing.LiteralString`` alias (whose target is ``builtins.str``).  mypy expands aliases before
every check of its own, so to mypy it is exactly ``str`` and the plugin adds no error of
mypy's kind; the unexpanded alias, though, survives declarations, generic substitution and the
incremental cache, so the plugin can tell where LiteralString was written.  (A ``str``
subclass makes mypy reject ``x: LiteralString = "a"``; a marker in ``Instance.extra_attrs`` is
erased in place by mypy's union simplification.)
"""

from __future__ import annotations

from typing import Dict

from mypy.errorcodes import ErrorCode
from mypy.maptype import map_instance_to_supertype
from mypy.messages import format_type_bare
from mypy.nodes import ARG_STAR, INVARIANT, CallExpr, TypeAlias
from mypy.options import Options
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    ProperType,
    TupleType,
    Type,
    TypeAliasType,
    TypedDictType,
    TypeOfAny,
    TypeVarId,
    TypeVarType,
    UninhabitedType,
    UnionType,
    get_proper_type,
)

LITERAL_STRING_NAMES = frozenset({"typing.LiteralString", "typing_extensions.LiteralString"})
LITERAL_STRING = ErrorCode(
    "literal-string", "Check that only literal strings reach LiteralString", "General"
)
# The plugin's own failure on a module: an error of its own code, so that no `# type: ignore`
# for literal-string hides it and `typing-literalstring check` fails the run on it.
PLUGIN_FAILURE = ErrorCode(
    "literal-string-plugin", "typing_literalstring.mypy could not check a module", "General"
)
# How deep the structural helpers look into nested types (list[dict[str, LiteralString]]...).
_MAX_DEPTH = 6

Substitution = Dict[TypeVarId, Type]


class _AliasHolder:
    """The ``typing.LiteralString`` alias node, found once per mypy process."""

    node: TypeAlias | None = None


ALIAS = _AliasHolder()


def remember_alias(node: TypeAlias) -> None:
    if ALIAS.node is None:
        ALIAS.node = node


def is_marked(t: Type | None) -> bool:
    """Is ``t`` LiteralString itself (possibly through user aliases of it)?"""
    for _ in range(8):
        if not isinstance(t, TypeAliasType) or t.alias is None:
            return False
        if t.alias.fullname in LITERAL_STRING_NAMES:
            return True
        t = t._expand_once()  # pyright: ignore[reportPrivateUsage]
    return False


def literal_string(line: int = -1, column: int = -1) -> Type | None:
    """A new LiteralString marker, or None before the alias node is known."""
    if ALIAS.node is None:
        return None
    return TypeAliasType(ALIAS.node, [], line, column)


def mark(t: Type) -> Type:
    """``str`` -> LiteralString; ``list[str]`` -> ``list[LiteralString]``; tuples likewise."""
    if is_marked(t):
        return t
    p = get_proper_type(t)
    if isinstance(p, Instance):
        if p.type.fullname == "builtins.str":
            return literal_string(p.line, p.column) or t
        if p.args:
            return p.copy_modified(args=[mark(a) for a in p.args])  # pyright: ignore[reportUnknownMemberType]
    if isinstance(p, TupleType):
        return p.copy_modified(items=[mark(i) for i in p.items])  # pyright: ignore[reportUnknownMemberType]
    return t


def is_literal_type(t: Type | None) -> bool:
    """Is a value of this (mypy-inferred) type known to be a literal string?"""
    if t is None:
        return False
    if is_marked(t):
        return True
    p = get_proper_type(t)
    if isinstance(p, LiteralType):
        return isinstance(p.value, str) and p.fallback.type.fullname == "builtins.str"
    if isinstance(p, Instance):
        known = p.last_known_value
        return (
            known is not None and isinstance(known.value, str) and p.type.fullname == "builtins.str"
        )
    if isinstance(p, UnionType):
        return all(is_literal_type(i) for i in p.items)
    if isinstance(p, TypeVarType):
        return is_literal_type(p.upper_bound)
    return isinstance(p, UninhabitedType)


def requires_literal(t: Type) -> bool:
    """Does a slot of this declared type accept only literal strings (when given a str)?"""
    if is_marked(t):
        return True
    p = get_proper_type(t)
    if isinstance(p, TypeVarType):
        return requires_literal(p.upper_bound) or (
            bool(p.values) and all(requires_literal(v) for v in p.values)
        )
    if isinstance(p, UnionType):
        strings = [i for i in union_items(t) if is_str(i)]
        return bool(strings) and all(requires_literal(i) for i in strings)
    return False


def union_items(t: Type, depth: int = 0) -> list[Type]:
    """A union's items, nested unions and aliases of unions flattened, LiteralString kept as
    the marker (psycopg 3: ``Query = Union[QueryNoTemplate, Template]`` where
    ``QueryNoTemplate = Union[LiteralString, bytes, SQL, Composed]``)."""
    if is_marked(t) or depth > _MAX_DEPTH:
        return [t]
    p = get_proper_type(t)
    if isinstance(p, UnionType):
        return [i for item in p.items for i in union_items(item, depth + 1)]
    return [t]


def is_str(t: Type) -> bool:
    """``str``, a ``Literal`` string or a TypeVar bound to ``str``."""
    p = get_proper_type(t)
    if isinstance(p, LiteralType):
        return p.fallback.type.fullname == "builtins.str"
    if isinstance(p, TypeVarType):
        return is_str(p.upper_bound)
    return isinstance(p, Instance) and p.type.fullname == "builtins.str"


def without_strings(t: Type) -> Type | None:
    """``LiteralString | Sequence[LiteralString]`` -> ``Sequence[LiteralString]``; None when
    nothing but strings is left."""
    p = get_proper_type(t)
    if not isinstance(p, UnionType):
        return None
    rest = [i for i in union_items(t) if not is_str(i)]
    return UnionType.make_union(rest) if rest else None


def is_any(t: Type | None) -> bool:
    return isinstance(get_proper_type(t), AnyType)


def is_unchecked_any(t: Type | None) -> bool:
    """A value of type Any (or a union with Any) that mypy has not already reported."""
    p = get_proper_type(t)
    if isinstance(p, UnionType):
        return any(is_unchecked_any(i) for i in p.items)
    return isinstance(p, AnyType) and p.type_of_any not in (
        TypeOfAny.from_error,
        TypeOfAny.special_form,
        TypeOfAny.implementation_artifact,
    )


def contains_mark(t: Type, depth: int = 0) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if is_marked(t):
        return True
    p = get_proper_type(t)
    if isinstance(p, Instance):
        return any(contains_mark(a, depth + 1) for a in p.args)
    if isinstance(p, (UnionType, TupleType)):
        return any(contains_mark(i, depth + 1) for i in p.items)
    if isinstance(p, TypedDictType):
        return any(contains_mark(i, depth + 1) for i in p.items.values())
    if isinstance(p, TypeVarType):
        return contains_mark(p.upper_bound, depth + 1)
    return False


def callable_has_mark(sig: CallableType) -> bool:
    return any(contains_mark(t) for t in sig.arg_types) or any(
        contains_mark(v.upper_bound) for v in sig.variables if isinstance(v, TypeVarType)
    )


def _not_a_str(t: Type | None) -> bool:
    """A value mypy already checked against the slot and that is no string: not our business."""
    if t is None:
        return False
    p = get_proper_type(t)
    if isinstance(p, AnyType):
        return True
    if isinstance(p, UnionType):
        return all(is_literal_type(i) or _not_a_str(i) for i in p.items)
    return not is_str(p)


def compatible(actual: Type | None, expected: Type, depth: int = 0) -> bool:
    """Marker-aware compatibility; mypy checked everything else (LiteralString is str to it)."""
    if actual is None or depth > _MAX_DEPTH:
        return True
    if requires_literal(expected):
        return is_literal_type(actual) or _not_a_str(actual)
    a: ProperType = get_proper_type(actual)
    e = get_proper_type(expected)
    if isinstance(a, AnyType):
        return True
    if isinstance(e, Instance) and isinstance(a, TupleType):
        a = (
            Instance(a.partial_fallback.type, [UnionType.make_union(list(a.items))])
            if a.items
            else a.partial_fallback
        )
    if isinstance(e, Instance) and isinstance(a, Instance) and contains_mark(e):
        if not a.type.has_base(e.type.fullname):
            return True
        mapped = map_instance_to_supertype(a, e.type)
        return all(compatible(x, y, depth + 1) for x, y in zip(mapped.args, e.args))
    if isinstance(a, UnionType):
        return all(compatible(i, e, depth + 1) for i in a.items)
    return True


def unify(pattern: Type, target: Type, subst: Substitution, depth: int = 0) -> bool:
    """Match a declared type with TypeVars against a type; a TypeVar matched more than once
    stays literal only if every match is."""
    if depth > _MAX_DEPTH:
        return False
    p = get_proper_type(pattern)
    if isinstance(p, TypeVarType):
        if p.id not in subst or not is_literal_type(target):
            subst[p.id] = target
        return True
    t = get_proper_type(target)
    if isinstance(p, Instance) and isinstance(t, Instance) and t.type.has_base(p.type.fullname):
        mapped = map_instance_to_supertype(t, p.type)
        return all(unify(a, b, subst, depth + 1) for a, b in zip(p.args, mapped.args))
    return False


def substitute(t: Type, subst: Substitution, depth: int = 0) -> Type:
    if depth > _MAX_DEPTH:
        return t
    p = get_proper_type(t)
    if isinstance(p, TypeVarType) and p.id in subst:
        return subst[p.id]
    if isinstance(p, Instance) and p.args:
        args = [substitute(a, subst, depth + 1) for a in p.args]
        return p.copy_modified(args=args)  # pyright: ignore[reportUnknownMemberType]
    return t


def describe(t: Type | None, options: Options) -> str:
    """A type as mypy's messages write it, with LiteralString shown where it is meant."""
    if t is None:
        return "str"
    if is_marked(t):
        return "LiteralString"
    p = get_proper_type(t)
    if isinstance(p, Instance) and p.args and contains_mark(p):
        return f"{p.type.name}[{', '.join(describe(a, options) for a in p.args)}]"
    if isinstance(p, TypeVarType) and requires_literal(p.upper_bound):
        return p.name
    if isinstance(p, UnionType) and contains_mark(p):
        return " | ".join(describe(i, options) for i in p.items)
    return format_type_bare(p, options)


def invariance_breach(actual: Type | None, expected: Type, depth: int = 0) -> bool:
    """``list[LiteralString]`` where ``list[str]`` is wanted: LiteralString is a proper subtype
    of str, so an invariant type argument may not change between them."""
    if actual is None or depth > _MAX_DEPTH:
        return False
    a, e = get_proper_type(actual), get_proper_type(expected)
    if isinstance(e, UnionType):
        return all(invariance_breach(a, i, depth + 1) for i in e.items)
    if not isinstance(a, Instance) or not isinstance(e, Instance) or not e.args:
        return False
    if not a.type.has_base(e.type.fullname):
        return False
    mapped = map_instance_to_supertype(a, e.type)
    for x, y, variable in zip(mapped.args, e.args, e.type.defn.type_vars):
        invariant = isinstance(variable, TypeVarType) and variable.variance == INVARIANT
        if invariant and is_marked(x) and is_str(y) and not requires_literal(y):
            return True
        if invariance_breach(x, y, depth + 1):
            return True
    return False


def bad_type_arguments(t: Type, depth: int = 0) -> list[tuple[Type, Instance, Type]]:
    """Type arguments that break a LiteralString bound: (argument, generic, bound)."""
    found: list[tuple[Type, Instance, Type]] = []
    p = get_proper_type(t)
    if depth > _MAX_DEPTH:
        return found
    if isinstance(p, Instance):
        for arg, variable in zip(p.args, p.type.defn.type_vars):
            if (
                isinstance(variable, TypeVarType)
                and requires_literal(variable.upper_bound)
                and is_str(arg)
                and not is_literal_type(arg)
            ):
                found.append((arg, p, variable.upper_bound))
            found.extend(bad_type_arguments(arg, depth + 1))
    elif isinstance(p, (UnionType, TupleType)):
        for item in p.items:
            found.extend(bad_type_arguments(item, depth + 1))
    return found


def has_type_variables(t: Type, depth: int = 0) -> bool:
    """Whether ``t`` holds a TypeVar within the depth the helpers look (a recursive alias such
    as ``Key = Union[type, tuple["Key", ...]]`` expands forever)."""
    if depth > _MAX_DEPTH:
        return False
    p = get_proper_type(t)
    if isinstance(p, TypeVarType):
        return True
    if isinstance(p, Instance):
        return any(has_type_variables(a, depth + 1) for a in p.args)
    return isinstance(p, (UnionType, TupleType)) and any(
        has_type_variables(i, depth + 1) for i in p.items
    )


def accepts(expected: Type, actual: Type | None) -> bool:
    """Would mypy take ``actual`` for ``expected`` (LiteralString being str to it)?"""
    if actual is None:
        return False
    if is_subtype(actual, expected):
        return True
    p = get_proper_type(actual)
    known = p.last_known_value if isinstance(p, Instance) else None
    return known is not None and is_subtype(known, expected)


def maps_every_argument(call: CallExpr, formals: list[list[int]]) -> bool:
    """Whether an overload item has a parameter for each argument of ``call`` (``formals``:
    ``map_actuals_to_formals``'s answer); a ``*args`` may fill none, as it may be empty."""
    mapped = {a for actuals in formals for a in actuals}
    return all(i in mapped or kind == ARG_STAR for i, kind in enumerate(call.arg_kinds))
