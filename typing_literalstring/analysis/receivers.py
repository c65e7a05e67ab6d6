"""What a sink call's revealed callee is: a sink that takes a LiteralString, a callee that takes
any ``str``, or one the checker could not type (``sink_outcomes``).  The callee's type is the
checker's printed signature; reading it can make a call a finding or leave it unverified, never
prove its text (only the judge's answer does: ``checkers/asking.py``)."""

from __future__ import annotations

import ast
import re

from typing_literalstring.analysis.callees import imported_names
from typing_literalstring.analysis.own_sinks import tightened_parameters
from typing_literalstring.analysis.sink_looks import Look
from typing_literalstring.analysis.unverified import Instrumented, is_any, members
from typing_literalstring.analysis.wrappers import Wrapper
from typing_literalstring.specs.sinks import callee_name

# A revealed type's members that may hold text: str and its literal forms, and what the checker
# could not tell (Any, Unknown, object, a type variable's bound is not known here).
_TEXT_MEMBER = re.compile(
    r"(?:builtins\.)?(?:str|LiteralString|Any|Unknown|object)\*?$|Literal\[['\"]|.*\bstr\b"
)


def may_be_text(revealed: str) -> bool:
    """Whether a value of the revealed type may be a string: some member of its top-level
    union is.  `Select[tuple[int]]`, `TextClause` or `int | None` is not; `str | None`,
    `Union[str, bytes]` or `Literal['a']` is."""
    return any(_TEXT_MEMBER.match(member.strip()) for member in members(revealed))


def no_text(look: Look, instrumented: Instrumented) -> bool:
    """Whether the call's argument, passed as a name or value, is revealed to be no string:
    a psycopg ``Composed``, a SQLAlchemy ``TextClause``."""
    if look.argument not in look.parts:
        return False
    revealed = instrumented.type_of(look.argument)
    return revealed is not None and not may_be_text(revealed)


# The sinks that are classes (their constructor is tightened): a subclass that overrides it
# untyped is still one.
_CONSTRUCTED = frozenset(
    t.owner for t in tightened_parameters() if t.function in ("__init__", "__new__") and t.owner
)

# The packages whose classes may override one of those constructors untyped: a library we
# tighten (Jinja2 3.0's `jinja2.Markup` over markupsafe's).  A project's own class of such a
# name (peewee's `SQL`, Pony's `RawSQL`) inherits nothing of ours.
_TIGHTENED_PACKAGES = frozenset(t.module.split(".")[0] for t in tightened_parameters())


def receiver_kind(look: Look, callee_type: str | None, tree: ast.Module) -> str:
    """ "sink" (the callee takes a LiteralString, is a standard shell function, or takes a type
    of its own: psycopg's ``Query``, a class whose constructor the checker judges), "unknown"
    (Any or Unknown), or "str" (its text parameter takes any str, or Any)."""
    if look.callee is None or callee_type is None:
        return "sink"
    if is_any(callee_type):
        return "unknown"
    if "LiteralString" in callee_type:
        return "sink"
    # A union of signatures (a cursor that is one of two classes) takes str if each does.
    # A member that is Any (`MySQLCursor | Any` when the C extension is absent) takes anything.
    firsts = [
        m.strip() if m.strip() in ("Any", "Unknown") else first_parameter(unwrapped(m))
        for m in members(callee_type.strip())
    ]
    if firsts and all(f in ("str", "str | None", "Any", "Unknown") for f in firsts):
        # A class named like one whose constructor we tighten, its first parameter left
        # untyped: a subclass overriding it without annotations (Jinja2 3.0's
        # `jinja2.Markup(base="")` over markupsafe.Markup), which pyright gives the base's
        # type and mypy leaves Any.  Its text is judged as the base's would be.
        if (
            callee_name(look.call.func) in _CONSTRUCTED
            and all(f in ("Any", "Unknown") for f in firsts)
            and _imported_from_a_tightened_package(look.call.func, tree)
        ):
            return "inherits"
        return "str"
    return "sink"


def _imported_from_a_tightened_package(func: ast.expr, tree: ast.Module) -> bool:
    """Whether the callee (`Markup`, `jinja2.Markup`) is bound by an import from one of the
    packages we tighten, or is a class of this module with such a base
    (`class Markup(markupsafe.Markup)`): not a class of the project's own of that name
    (peewee's `class SQL(ColumnBase)`) or another library's."""
    names = imported_names(tree, None)

    def imported(node: ast.expr) -> bool:
        head = node
        while isinstance(head, ast.Attribute):
            head = head.value
        if not isinstance(head, ast.Name) or head.id not in names:
            return False
        return names[head.id].split(".")[0] in _TIGHTENED_PACKAGES

    if imported(func):
        return True
    defined = next(
        (
            node
            for node in tree.body
            if isinstance(node, ast.ClassDef)
            and isinstance(func, ast.Name)
            and node.name == func.id
        ),
        None,
    )
    return defined is not None and any(imported(base) for base in defined.bases)


def unwrapped(member: str) -> str:
    """A union member without the parentheses pyright puts around a signature."""
    member = member.strip()
    while member.startswith("(") and member.endswith(")"):
        depth = 0
        for index, char in enumerate(member):
            depth += char in "[("
            depth -= char in "])"
            if depth == 0 and index < len(member) - 1:
                return member  # the first parenthesis closes before the end: the parameters
        member = member[1:-1].strip()
    return member


# Where a revealed signature's parameters start: `(sql: str) -> None` (pyright, pyrefly),
# `bound method C.execute(sql: str) -> None` (ty), `def (sql: str)` (zuban),
# `Callable[[str], None]` (mypy).
_PARAMETERS = re.compile(r"^(?:bound method [\w.]+|def |Overload\[)?\(|^Callable\[\[")


def first_parameter(signature: str) -> str | None:
    """The type of a revealed signature's first parameter, without its name; None when the
    text is no signature that we read."""
    start = _PARAMETERS.match(signature.strip())
    if start is None:
        return None
    depth, begin = 0, start.end()
    for index in range(begin, len(signature)):
        char = signature[index]
        if char in "[(":
            depth += 1
        elif char in "])" and depth:
            depth -= 1
        elif depth == 0 and char in ",)]":
            parameter = signature[begin:index].strip()
            name, colon, annotation = parameter.partition(": ")
            # A default: `sql: str = ...` (pyright), `base: Any =` (mypy writes no value).
            return (annotation if colon else name).split(" =")[0].strip() or None
    return None


def is_the_wrapper(wrapper: Wrapper, callee_type: str) -> bool:
    """Whether a revealed callee is the wrapper: its signature names the parameter (or, for
    a class, its type names the class); an Any callee may be anything."""
    if is_any(callee_type):
        return False
    if "(...)" in callee_type:
        return True  # pyright's `cls(*args, **kwargs)`: a signature that takes anything
    named = wrapper.parameter.lstrip("*") if wrapper.position is not None else wrapper.keyword
    return any(
        re.search(rf"\b{re.escape(word)}\b", callee_type) is not None
        for word in (named, wrapper.name if wrapper.is_class else None)
        if word
    )


__all__ = ["first_parameter", "is_the_wrapper", "may_be_text", "no_text", "receiver_kind"]
