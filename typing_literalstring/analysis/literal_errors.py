"""Which of a checker's errors say that a non-literal string reached a LiteralString.

Measured on pyright 1.1.414, basedpyright 1.40.2, ty 1.0.0, zuban 0.11.1, pyrefly 1.5.0 and mypy
2.4.1 with our plugin, on a user module with a ``def run_report(sql: LiteralString)`` helper, a
method, a return, an assignment, an attribute, a TypedDict item and a ``list[LiteralString]``
(docs/checker-messages.md lists every message, and how "no overload matches" is judged).
Each checker says it differently, but every one names LiteralString as the *expected* side; an
error where LiteralString is only the actual type (``"LiteralString" is not assignable to
"int"``) is not about literal strings.

Also here: the errors that say an import did not resolve, since an unresolved import turns values
into Unknown and silently hides sinks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from typing_literalstring.checkers import Diagnostic

# The expected side of an assignability message names LiteralString, in each checker's words.
_EXPECTED_LITERAL_STRING = re.compile(
    r"(?:"
    r"assignable to (?:return type |declared type |declared return type |attribute `?\w+`? "
    r"(?:of|with) type )?"  # pyright, ty, pyrefly
    r"|parameter [\"`]\w+[\"`] (?:of|with) type "  # pyright, pyrefly
    r"|[Ee]xpected:? "  # ty, zuban, mypy
    r"|variable has type "  # zuban, mypy
    r"|has type |with type |declared type "  # TypedDict items, attributes
    r")[\"`](?P<expected>[^\"`]*\bLiteralString\b[^\"`]*)"
)
# How each checker names the function whose parameter it checked.
_CALLEE = (
    re.compile(r'parameter "(?P<param>\w+)".* in function "(?P<function>\w+)"'),  # pyright
    re.compile(r"parameter `(?P<param>\w+)`.* in function `(?P<qualified>[\w.]+)`"),  # pyrefly
    re.compile(r"Argument to (?:function|bound method|constructor) `(?P<dotted>[\w.]+)`"),  # ty
    re.compile(  # zuban, mypy
        r'Argument (?P<position>\d+) to "(?P<function>\w+)"(?: of "(?P<cls>\w+)")?'
    ),
)

_UNRESOLVED_CODES = frozenset(
    {
        "reportMissingImports",  # pyright, basedpyright
        "unresolved-import",  # ty before 1.0
        "import-not-found",  # mypy, zuban, ty 1.0
        "missing-import",  # pyrefly
        "import-untyped",  # mypy: installed without types, so every value from it is Any
    }
)
_UNRESOLVED_MODULE = re.compile(
    r"(?:Import|module|module named|imported module|Could not find import of"
    r"|Library stubs not installed for|Skipping analyzing) "
    r"[\"`'](?P<module>[\w.]+)[\"`']"
)


# "No overload matches": the message may not say which parameter types refused the argument.
_NO_MATCHING_OVERLOAD = {
    "reportCallIssue": "No overloads for",  # pyright, basedpyright
    "no-matching-overload": "",  # ty, pyrefly
    "call-overload": "",  # zuban, mypy
}


def is_no_matching_overload(diagnostic: Diagnostic) -> bool:
    start = _NO_MATCHING_OVERLOAD.get(diagnostic.code)
    return start is not None and diagnostic.message.startswith(start)


def notes_name_literal_string(notes: list[Diagnostic]) -> bool:
    """zuban's notes list the overload variants: does one take LiteralString?"""
    return any(re.search(r"\bLiteralString\b", note.message) for note in notes)


# A str method's own LiteralString overload (PEP 675 Appendix C) is never a sink: its str
# overload takes any string.  zuban 0.11.1 reports `"\n".join(list_of_str)` inside a call
# against the LiteralString overload; that is the checker's overload choice, not a flow.
_STR_METHOD = re.compile(r'(?:"\w+" of "str"|`str\.\w+`|function "str\.\w+")')


def names_a_str_method(diagnostic: Diagnostic) -> bool:
    """Whether the error is about a call of a str method: "no overload matches" there lists
    Appendix C's LiteralString overloads, but a str overload always follows, so it is never a
    literal string refused (ty on django-debug-toolbar: `":".join([*names, None_or_str])`)."""
    return bool(_STR_METHOD.search(diagnostic.message))


# "No overloads for "__getitem__"": an operator's or a subscript's methods, named where the
# expression is not a call, so the call around it is not the callee named.  No specification
# of ours tightens an operator (only __init__, __new__ and __call__, which are calls).
_OPERATOR = re.compile(r'["`](?:\w+\.)*__(?!(?:init|new|call)__)\w+__["`]')


def names_an_operator(diagnostic: Diagnostic) -> bool:
    """Whether a "no overload matches" error is about an operator or a subscript
    (``config["main"]``: litecli 1.17.1 has 14), which takes no LiteralString of ours."""
    return bool(_OPERATOR.search(diagnostic.message.split("\n")[0]))


def is_about_literal_string(diagnostic: Diagnostic, checker: str) -> bool:
    """Whether the error says a non-literal string reached a LiteralString."""
    if is_method_override(diagnostic):
        return False
    if checker == "mypy+plugin":
        return diagnostic.code == "literal-string"
    message = _without_protocol_explanation(diagnostic.message)
    return bool(_EXPECTED_LITERAL_STRING.search(message)) and not _STR_METHOD.search(message)


# A method's signature against the one it overrides: pyright, basedpyright, pyrefly, ty, zuban
# by their codes; our plugin's `literal-string` errors by their words ('Return type "str" of
# "handle" incompatible with return type "LiteralString" in supertype "BaseCommand"', 'Argument
# 1 of "run" is incompatible with supertype "Base"').
_OVERRIDE_CODES = frozenset(
    {
        "reportIncompatibleMethodOverride",  # pyright, basedpyright
        "bad-override",  # pyrefly
        "incompatible-method-override",  # ty
        "override",  # zuban, mypy
    }
)
_PLUGIN_OVERRIDE = re.compile(r'incompatible with (?:return type "[^"]*" in )?supertype "')


def is_method_override(diagnostic: Diagnostic) -> bool:
    """Whether the error is about a method's override of a base method.  No string flows
    there, so it is never a finding (issue 28): pyright infers an unannotated base's return
    type, and a Django management command's `handle(...) -> str` was LS001 against
    `LabelCommand.handle`, whose `"\\n".join(output)` pyright types LiteralString (on
    django-extensions without django-stubs).  ty and zuban never worded one as about a
    LiteralString; now no checker's is."""
    return diagnostic.code in _OVERRIDE_CODES or (
        diagnostic.code == "literal-string" and bool(_PLUGIN_OVERRIDE.search(diagnostic.message))
    )


# pyright explains why a str does not fit a protocol (`Iterator[Any]`) by str's own methods,
# whose Appendix C overloads take `self: LiteralString`: '"str" is incompatible with protocol
# "Iterator[Any]" ... Could not bind method "__iter__" ... "str" is not assignable to
# "LiteralString"'.  That LiteralString is str's, not the parameter's (beets 2.14.1).
_PROTOCOL_EXPLANATION = re.compile(r"is incompatible with protocol|Could not bind method")


def _without_protocol_explanation(message: str) -> str:
    """The message without the lines of a protocol mismatch's explanation."""
    lines = message.splitlines()
    for number, line in enumerate(lines):
        if number and _PROTOCOL_EXPLANATION.search(line):
            return "\n".join(lines[:number])
    return message


def expected_type(message: str) -> str | None:
    """The expected type, as the message writes it, when it names LiteralString."""
    match = _EXPECTED_LITERAL_STRING.search(message)
    return match["expected"] if match else None


@dataclass(frozen=True)
class Callee:
    """What the checker's message says about the called function."""

    function: str = ""  # its name, or a dotted name when the checker gives one
    qualified: bool = False  # ``function`` is fully qualified (pyrefly)
    cls: str = ""  # the class of a method when the checker names it (zuban, mypy)
    parameter: str = ""  # the parameter's name, or "argument N"


def callee_in(messages: tuple[str, ...]) -> Callee | None:
    """The callee named in a checker's messages, or None for assignments and returns."""
    for message in messages:
        for pattern in _CALLEE:
            match = pattern.search(message)
            if match is None:
                continue
            found = match.groupdict()
            param = found.get("param") or ""
            if found.get("position"):
                param = f"argument {found['position']}"
            if found.get("qualified"):
                return Callee(found["qualified"] or "", True, "", param)
            if found.get("dotted"):
                dotted = found["dotted"] or ""
                cls, _, function = dotted.rpartition(".")
                return Callee(function, False, cls, param)
            return Callee(found.get("function") or "", False, found.get("cls") or "", param)
    return None


def callee_hint(diagnostics: Sequence[Diagnostic]) -> str | None:
    """For ``Sites.at``: the function the messages name; "" when they are about an assignment
    or a return (no function named, no "no overload matches"); None when unknown."""
    named = callee_in(tuple(d.message for d in diagnostics))
    if named is not None and named.function:
        return named.function
    return None if any(is_no_matching_overload(d) for d in diagnostics) else ""


def is_untyped_module(diagnostic: Diagnostic) -> bool:
    """mypy's import-untyped: the module is installed but has no types ("Skipping analyzing
    "x": module is installed, but missing library stubs or py.typed marker", or "Library stubs
    not installed for "yaml"", when a stub package exists); its values are Any."""
    return diagnostic.code == "import-untyped"


def unresolved_module(diagnostic: Diagnostic) -> str | None:
    """The module an unresolved-import error names, or None when it is not one."""
    if diagnostic.code not in _UNRESOLVED_CODES and not (
        diagnostic.code == "" and "Cannot find" in diagnostic.message
    ):
        return None
    match = _UNRESOLVED_MODULE.search(diagnostic.message)
    return match["module"] if match else diagnostic.message.split("\n")[0]
