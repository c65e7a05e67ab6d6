"""What a sink call's revealed callee is: a sink that takes a LiteralString, a callee that takes
any ``str``, or one the checker could not type (``sink_outcomes``).  The callee's type is the
checker's printed signature; reading it can make a call a finding or leave it unverified, never
prove its text (only the judge's answer does: ``checkers/asking.py``)."""

from __future__ import annotations

import ast
import re
from typing import Callable, Sequence

from typing_literalstring.analysis.callees import imported_names
from typing_literalstring.analysis.own_sinks import tightened_parameters
from typing_literalstring.analysis.sink_looks import Look
from typing_literalstring.analysis.unverified import Instrumented, is_any, members
from typing_literalstring.analysis.wrapper_calls import Wrapper
from typing_literalstring.specs.sinks import callee_name

# A revealed type's members that may hold text: str and its literal forms, and what the checker
# could not tell (Any, Unknown, object, a type variable's bound is not known here).
# Bytes too: a command or query of bytes built from input is the same injection, and no type
# can prove bytes literal (PEP 675 has no LiteralBytes).
_TEXT_MEMBER = re.compile(
    r"(?:builtins\.)?(?:str|bytes|LiteralString|Any|Unknown|object)\*?$|Literal\[b?['\"]"
    r"|.*\bstr\b"
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

# The classes whose constructor we tighten, by the name their package exports them under.
_TIGHTENED_CLASSES = frozenset(
    f"{t.module.split('.')[0]}.{t.owner}"
    for t in tightened_parameters()
    if t.function in ("__init__", "__new__") and t.owner
)
# The packages whose classes may override one of those constructors untyped: a library we
# tighten (Jinja2 3.0's `jinja2.Markup` over markupsafe's).  A project's own class of such a
# name (peewee's `SQL`, Pony's `RawSQL`) inherits nothing of ours.
_TIGHTENED_PACKAGES = frozenset(t.module.split(".")[0] for t in tightened_parameters())


def receiver_kind(
    look: Look, callee_type: str | None, tree: ast.Module, constructors: Sequence[str] = ()
) -> str:
    """ "sink" (the callee takes a LiteralString: a standard shell or logging function, or its
    revealed signature, or a class sink's revealed constructor, names one), "unknown" (Any or
    Unknown, or not revealed), "inherits" (a subclass overriding a tightened constructor
    untyped), or "str" (its signature names no LiteralString: it takes any str, or is
    another library's function of the sink's name)."""
    if look.callee is None:
        return "sink"
    if callee_type is None:
        return "unknown"
    if any(_takes_literal(t) for t in (callee_type, *constructors)):
        return "sink"
    if is_any(callee_type) and not constructors:
        return "unknown"
    # A union of signatures (a cursor that is one of two classes) takes str if each does.
    # A member that is Any (`MySQLCursor | Any` when the C extension is absent) takes anything.
    firsts = [
        m.strip() if m.strip() in ("Any", "Unknown") else first_parameter(unwrapped(m))
        for m in members(callee_type.strip())
    ]
    firsts += [_first_after_self(c) for c in constructors]
    # A class named like one whose constructor we tighten, its first parameter left untyped:
    # a subclass overriding it without annotations (Jinja2 3.0's `jinja2.Markup(base="")`
    # over markupsafe.Markup), which pyright gives the base's type and mypy leaves Any.  Its
    # text is judged as the base's would be.
    untyped = [f for f in firsts if f is not None]
    if (
        untyped
        and all(f in ("Any", "Unknown") or f.startswith("=") for f in untyped)
        and callee_name(look.call.func) in _CONSTRUCTED
        and _imported_from_a_tightened_package(look.call.func, tree)
    ):
        return "inherits"
    return "str"


# A signature that takes a LiteralString, or psycopg 3's alias of its query type, which pyrefly
# prints by name (`QueryNoTemplate`) where the others expand it.
_LITERAL_PARAMETER = re.compile(r"\bLiteralString\b|\bQuery(?:NoTemplate)?\b")


def _takes_literal(signature: str) -> bool:
    return _LITERAL_PARAMETER.search(signature) is not None


def _first_after_self(signature: str) -> str | None:
    """The type of a constructor's first parameter after ``self`` or ``cls``; "=" and its
    default for one without an annotation (pyright writes `base=""`)."""
    found = parameters(signature)
    if found and found[0][0] in ("self", "cls"):
        found = found[1:]
    if not found:
        return None
    _name, annotation = found[0]
    return annotation or None


def _imported_from_a_tightened_package(func: ast.expr, tree: ast.Module) -> bool:
    """Whether the callee (`Markup`, `jinja2.Markup`) is bound by an import from one of the
    packages we tighten, or is a class of this module with such a base
    (`class Markup(markupsafe.Markup)`): not a class of the project's own of that name
    (peewee's `class SQL(ColumnBase)`) or another library's."""
    names = imported_names(tree, None)

    def qualified(node: ast.expr) -> str:
        """The dotted name the node's import gives it, "" where no import binds it."""
        attributes: list[str] = []
        head = node
        while isinstance(head, ast.Attribute):
            attributes.insert(0, head.attr)
            head = head.value
        if not isinstance(head, ast.Name) or head.id not in names:
            return ""
        return ".".join([names[head.id], *attributes])

    def imported(node: ast.expr) -> bool:
        return qualified(node).split(".")[0] in _TIGHTENED_PACKAGES

    if imported(func):
        # The tightened class itself (`markupsafe.Markup`) overrides nothing: where its
        # constructor takes no LiteralString, our specification did not apply to it.
        return qualified(func) not in _TIGHTENED_CLASSES
    return _defined_over_a_tightened_class(func, tree, imported)


def _defined_over_a_tightened_class(
    func: ast.expr, tree: ast.Module, imported: Callable[[ast.expr], bool]
) -> bool:
    """Whether ``func`` names a class of this module with a base imported from a package we
    tighten (`class Markup(markupsafe.Markup)`)."""
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


def parameters(signature: str) -> list[tuple[str, str]]:
    """The (name, type) of each parameter of a revealed signature, the type "" where it has
    none (a default alone is kept as "=..."); [] when the text is no signature we read."""
    start = _PARAMETERS.match(signature.strip())
    if start is None:
        return []
    found: list[tuple[str, str]] = []
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
            if colon:
                # A default: `sql: str = ...` (pyright), `base: Any =` (mypy writes no value).
                annotation = annotation.split(" =")[0].strip()
            elif "=" in name:
                name, _, default = name.partition("=")
                annotation = f"={default}"
            found.append((name.strip(), annotation))
            if char != ",":
                break
            begin = index + 1
    return found


def first_parameter(signature: str) -> str | None:
    """The type of a revealed signature's first parameter, without its name; None when the
    text is no signature that we read."""
    found = parameters(signature)
    if not found:
        return None
    name, annotation = found[0]
    return (annotation if annotation and not annotation.startswith("=") else name) or None


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
