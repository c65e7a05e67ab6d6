"""``check``'s reveal of a sink call's parts, with LiteralString written where it is meant, and its
judge of a sink call's text.

mypy's own ``reveal_type`` writes LiteralString as ``str`` (to mypy it is ``str``), so the
probed copies ``check`` makes (``analysis.sink_outcomes``) wrap each part in
``typing_literalstring_reveal(part, tag)`` instead, and this hook notes its type as the plugin
sees it, in the words of ``reveal_type``: ``Revealed type is "tuple[LiteralString,
Literal[3]]"``.  A callable that takes a LiteralString says so after its signature.  A part
is judged as the post-pass judges an argument: literal in fact counts (``in_fact.py``).
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import Expression, IntExpr
from mypy.plugin import FunctionContext
from mypy.types import (
    AnyType,
    CallableType,
    Overloaded,
    Type,
    UnionType,
    get_proper_type,
)

from typing_literalstring.mypy.in_fact import source_facts
from typing_literalstring.mypy.literals import Literalness
from typing_literalstring.mypy.marker import callable_has_mark, describe, is_str

# The probe module's functions (checkers/asking.py writes its stub, under a name that carries the
# user's secret, `_tls_probe_<secret>`): the hooks are found by that name's shape.  A module of
# the checked project so named gains nothing: the hooks compute their answer themselves.
_PROBE_MODULE = "_tls_probe_"


def probe_function(fullname: str) -> str | None:
    """``reveal``, ``judged`` or ``judge`` when ``fullname`` is that function of a probe
    module."""
    module, _, name = fullname.rpartition(".")
    if module.startswith(_PROBE_MODULE) and "." not in module and name in _PROBES:
        return name
    return None


_PROBES = ("reveal", "judged", "judge")


def judgement(t: Type | None, literal: bool) -> str:
    """The judge's word (checkers/asking.py) for an argument of type ``t``, ``literal`` when
    the plugin proves it a literal string: Any when any part of its type is Any."""
    proper = get_proper_type(t)
    if proper is None:
        return "Any"
    items = proper.items if isinstance(proper, UnionType) else [proper]
    if any(isinstance(get_proper_type(i), AnyType) for i in items):
        return "Any"
    if not _text(proper):
        return "TlsOther"
    return "TlsLiteral" if literal else "TlsText"


def reveal_note(ctx: FunctionContext) -> Type:
    """Note the first argument's type under the tag given as the second."""
    if len(ctx.arg_types) == 2 and ctx.arg_types[0] and ctx.args[1]:
        tag = ctx.args[1][0]
        if isinstance(tag, IntExpr):
            shown = _shown(ctx.arg_types[0][0], ctx.args[0][0], ctx)
            ctx.api.msg.note(
                f'Revealed type is "tuple[{shown}, Literal[{tag.value}]]"', ctx.context
            )
    return ctx.default_return_type


def _text(t: Type) -> bool:
    """``str``, or a union of strings (``flag and "1" or "0"`` is ``Literal['1']? |
    Literal['0']?``, which mypy writes ``str``)."""
    p = get_proper_type(t)
    return is_str(t) or (isinstance(p, UnionType) and all(is_str(i) for i in p.items))


def _shown(t: Type, value: Expression, ctx: FunctionContext) -> str:
    checker = ctx.api
    if not isinstance(checker, TypeChecker):
        return "Any"  # never: mypy's checker is the plugin interface; "not judged" if not
    if _text(t):
        # The plugin judges literalness on the expression (an inferred variable's type is str).
        scope = checker.scope.top_level_function() or checker.tree
        in_fact = source_facts(checker.tree.path, checker.options)
        if Literalness(checker.lookup_type_or_none, in_fact).is_literal(value, scope):
            return "LiteralString"
    proper = get_proper_type(t)
    items = (
        [proper]
        if isinstance(proper, CallableType)
        else proper.items
        if isinstance(proper, Overloaded)
        else []
    )
    shown = describe(t, checker.options)
    if isinstance(proper, CallableType) and proper.is_type_obj():
        # A class: its constructor's signature (mypy writes `type[Markup]`), so that a subclass
        # overriding a tightened constructor untyped shows its `Any` parameter.
        shown = str(proper)
    # mypy writes a signature without its parameters' names (`Callable[[Any], Any]`), and
    # the project's own sink wrappers are told apart by them (analysis/wrappers.py).
    names = [n for item in items for n in item.arg_names if n]
    if names:
        shown += f" (parameters: {', '.join(dict.fromkeys(names))})"
    if any(callable_has_mark(item) for item in items):
        shown += " (takes LiteralString)"
    return shown
