"""Which of the tightened run's errors are ours: caused by our stubs at a sink, or saying in
the checker's words that a LiteralString refused a str.

These words can add findings (LS001 at the project's own LiteralString APIs, a refusal at a
sink call the probes could not ask about), never prove a call: every sink call's verdict is
the evidence of the same run (``sink_outcomes``).  An error that does not say is one of the
checker's other errors: no second run is made to tell (the checkers run in one language and
with no colour, ``core.processes``, so their words read the same everywhere)."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Sequence

from typing_literalstring.analysis import (
    own_sinks,
)
from typing_literalstring.analysis.classify import Stdlib
from typing_literalstring.analysis.literal_errors import (
    callee_in,
    is_about_literal_string,
    is_no_matching_overload,
    names_a_str_method,
    notes_name_literal_string,
)
from typing_literalstring.analysis.parsed import Parsed, sink_call_of
from typing_literalstring.analysis.runs import Key, error_key
from typing_literalstring.checkers import (
    Checker,
    Diagnostic,
    MypyPlugin,
)
from typing_literalstring.core.errors import CheckerFailedError
from typing_literalstring.specs.sinks import (
    SinkCall,
)
from typing_literalstring.specs.typeshed_literals import literal_preserving_parameters


def judge(
    tightened: list[Diagnostic],
    parsed: dict[str, Parsed],
    checker: str,
    stdlib: Stdlib,
    notes: Sequence[Diagnostic] = (),
) -> tuple[set[Key], set[Key]]:
    """The tightened run's errors that our stubs caused at a sink, and those about a
    LiteralString, as far as their own words tell (every sink call's verdict comes from the
    evidence of the same run, ``sink_outcomes``: these errors can add findings, never prove).

    An error at a sink call that does not say whether our stubs caused it, and a "no overload
    matches" that names no LiteralString, is one of the checker's other errors: no second run
    is made to tell."""
    # Errors of the base stubs at a shell sink called without a shell: about a LiteralString
    # in pyright's words, but no literal would make them pass.
    base = {
        error_key(d)
        for d in tightened
        if own_sinks.may_be_ours(d, checker)
        and (call := sink_call_of(parsed[d.path], d)) is not None
        and own_sinks.only_with_a_shell(call.called_as)
        and _without_a_shell(parsed[d.path], call)
    }
    from_stubs = judge_sink_errors(tightened, parsed, checker)
    kept = _literal_string_names(parsed)
    about = about_literal_strings(tightened, from_stubs, checker, notes) - base
    # typeshed's own LiteralString overloads (str.join, os.path.join) beside one for any str:
    # the plain checker reports these errors too, and no literal would make them pass.
    about -= {
        error_key(d)
        for d in tightened
        if error_key(d) in about and typesheds_own(d, tightened, stdlib.typeshed, kept)
    }
    # An error our stubs caused at a call not named like a sink (a specification's method
    # called where its package is not imported) is a LiteralString refused all the same when
    # it says so: a finding, never one of the "other errors".  Our stubs' other errors (a
    # return type a specification gave) stay other errors.
    about |= {
        error_key(d)
        for d in tightened
        if error_key(d) in from_stubs
        and sink_call_of(parsed[d.path], d) is None
        and is_about_literal_string(d, checker)
    } - base
    return from_stubs, about


def about_literal_strings(
    errors: list[Diagnostic],
    from_stubs: set[Key],
    checker: str,
    notes: Sequence[Diagnostic] = (),
) -> set[Key]:
    """The errors that say, in the checker's own words, that a LiteralString refused a str."""
    by_place: dict[tuple[str, int, int], list[Diagnostic]] = {}
    for d in notes:
        if d.severity == "note":
            by_place.setdefault((d.path, d.line, d.column), []).append(d)
    return {
        error_key(d)
        for d in errors
        if error_key(d) not in from_stubs
        and (
            is_about_literal_string(d, checker)
            or (
                is_no_matching_overload(d)
                and checker != "mypy+plugin"  # the plugin rewords these itself
                and not names_a_str_method(d)
                and notes_name_literal_string(by_place.get((d.path, d.line, d.column), []))
            )
        )
    }


# pyright follows "No overloads for "join" match" with why the closest overload refused the
# argument, at the argument: `... cannot be assigned to parameter "iterable" of type
# "Iterable[str]" in function "join"`.
_CLOSEST_REFUSAL = re.compile(
    r'to parameter "(?P<p>\w+)" of type "(?P<type>[^"]*)" in function "(?P<f>\w+)"'
)


_NO_OVERLOAD_FOR = re.compile(r'No overloads for "(?P<f>\w+)"')


def fails_for_another_reason(overload: Diagnostic, errors: list[Diagnostic]) -> bool:
    """Whether the call of a "no overload matches" error also fails an overload that takes any
    str, for a reason that names no LiteralString: then no literal string would make it pass
    (django-debug-toolbar: `":".join([*namespaces, url_name])` with `url_name: str | None`
    fails `Iterable[str]`).  An overload that takes no str (psycopg 3's `Template`) says
    nothing of the others."""
    named = _NO_OVERLOAD_FOR.search(overload.message)
    if named is None:
        return False
    for other in errors:
        if other is overload or other.path != overload.path or other.line != overload.line:
            continue
        refusal = _CLOSEST_REFUSAL.search(other.message)
        if (
            refusal is not None
            and refusal["f"] == named["f"]
            and re.search(r"\bstr\b", refusal["type"])
            and "LiteralString" not in other.message
        ):
            return True
    return False


def _literal_string_names(parsed: dict[str, Parsed]) -> frozenset[str]:
    """The names an error's callee may have that make it no typeshed function of ours to
    judge: the checked files' own functions taking LiteralString, and every function our
    specifications tighten (standard library and third-party)."""
    names: set[str] = set()
    for entry in parsed.values():
        names |= own_sinks.literal_string_functions(entry.tree, entry.source)
    for tightened in own_sinks.tightened_parameters():
        names |= {tightened.function, tightened.called_as}
    return frozenset(names)


# The callee a "no overload matches" names: pyright's `No overloads for "join"`, mypy's and
# zuban's `No overload variant of "join" of "str"`, ty's ``No overload of bound method
# `str.join` ``, pyrefly's ``No matching overload found for function `posixpath.join` ``.
_NO_OVERLOAD_OF = re.compile(
    r"No (?:overloads for|overload variant of|overload of (?:function|bound method|constructor)"
    r"|matching overload found for function) [\"`](?:[\w.]*\.)?(?P<f>\w+)[\"`]"
)


def _callee_and_parameter(d: Diagnostic, errors: list[Diagnostic]) -> tuple[str, str] | None:
    """The bare name of the function an error is about, and the parameter it names ("" when
    unnamed): for a "no overload matches", the one pyright's closest overload refused at the
    same line (`parameter "paths" of type "BytesPath" in function "join"`)."""
    overload = _NO_OVERLOAD_OF.search(d.message.split("\n")[0])
    if overload is not None:
        function = overload["f"]
        refused = (
            _CLOSEST_REFUSAL.search(other.message)
            for other in errors
            if other is not d and other.path == d.path and other.line == d.line
        )
        parameter = next((r["p"] for r in refused if r is not None and r["f"] == function), "")
        return function, parameter
    callee = callee_in((d.message,))
    if callee is None or not callee.function:
        return None
    parameter = "" if callee.parameter.startswith("argument ") else callee.parameter
    return callee.function.rpartition(".")[2], parameter


def typesheds_own(
    d: Diagnostic, errors: list[Diagnostic], typeshed: Path, kept: frozenset[str]
) -> bool:
    """Whether the error is about a function typeshed itself gives a LiteralString overload
    beside one for any ``str`` (``str.join``, ``os.path.join``, PEP 675 Appendix C), at the
    parameter that overload takes LiteralString for, while neither the checked files nor our
    specifications give a function of that name a LiteralString parameter (``kept``).

    The plain checker, on its own stubs, reports these errors too (pyright reports
    `"".join(xs)` against the LiteralString overload when `xs` comes from an unannotated
    function of another module: web.py 0.76; and "no overloads" for a `None` given to
    `os.path.join` reached through `certbot.compat.os` or to `posixpath.join` held in an
    attribute: certbot 5.8.0, pelican 4.12.0), and no literal would make them pass: the
    project's other errors, wherever the callee comes from."""
    named = _callee_and_parameter(d, errors)
    if named is None or named[0] in kept:
        return False
    function, parameter = named
    preserving = literal_preserving_parameters(typeshed).get(function)
    return preserving is not None and (not parameter or parameter in preserving)


def refuse_plugin_failures(checker: Checker, errors: list[Diagnostic], cwd: Path) -> None:
    """A module our mypy plugin could not check has unknown findings: never a pass."""
    failed = [
        d for d in errors if isinstance(checker, MypyPlugin) and d.code == checker.failure_code
    ]
    if failed:
        where = ", ".join(sorted({os.path.relpath(d.path, cwd) for d in failed}))
        raise CheckerFailedError(
            f"{checker.name} could not check {where}: {failed[0].message}; meanwhile check "
            "with another --checker"
        )


def judge_sink_errors(
    tightened: list[Diagnostic], parsed: dict[str, Parsed], checker: str
) -> set[Key]:
    """The errors at sink calls whose words say our stubs gave them."""
    ambiguous: set[str] = set()
    for entry in parsed.values():
        ambiguous |= own_sinks.literal_string_functions(entry.tree, entry.source)
    at_call: dict[tuple[str, int, int], tuple[SinkCall, list[Diagnostic]]] = {}
    for diagnostic in tightened:
        if not own_sinks.may_be_ours(diagnostic, checker):
            continue  # most errors: no need to find the call they fall in
        call = sink_call_of(parsed[diagnostic.path], diagnostic)
        if call is not None:
            place = (diagnostic.path, call.line, call.column)
            at_call.setdefault(place, (call, []))[1].append(diagnostic)
    ours: set[Key] = set()
    for call, diagnostics in at_call.values():
        called_as = call.called_as
        if own_sinks.only_with_a_shell(called_as) and _without_a_shell(
            parsed[diagnostics[0].path], call
        ):
            # Our overloads keep the base types unless shell= is given: an error here is the
            # base's (pyright then names our `shell: bool` overload's LiteralString parameter
            # anyway, for `run(["ls", path])` with `path: str | None`).
            continue
        verdicts = own_sinks.judge_call(diagnostics, called_as, checker, ambiguous)
        for diagnostic, verdict in zip(diagnostics, verdicts):
            if verdict is own_sinks.Verdict.UNSURE and _imported_from_ours(
                call, diagnostic, parsed[diagnostic.path], ambiguous
            ):
                verdict = own_sinks.Verdict.OURS
            if verdict is own_sinks.Verdict.OURS:
                ours.add(error_key(diagnostic))
    return ours


def _without_a_shell(entry: Parsed, call: SinkCall) -> bool:
    """Whether the call gives ``shell=`` nothing, or a literal False (and no ``**options``
    that might hold it)."""
    site = entry.sites.at(call.line, call.column).call
    if site is None:
        return False
    if any(k.arg is None for k in site.keywords):
        return False
    shell = next((k.value for k in site.keywords if k.arg == "shell"), None)
    return shell is None or (isinstance(shell, ast.Constant) and shell.value is False)


def _imported_from_ours(
    call: SinkCall, diagnostic: Diagnostic, entry: Parsed, ambiguous: set[str]
) -> bool:
    """Whether an error that names a tightened third-party parameter, but not its module, is at
    a callee the file imports from that very module (datasette: `from markupsafe import
    Markup`; `Markup(html)` says only `"__new__"`).  Then it is ours, and no untightened run is
    needed to tell it from a same-named LiteralString parameter of another library (psycopg
    3's `sql.SQL` against psycopg2's): that one is imported from elsewhere."""
    if is_no_matching_overload(diagnostic) or call.called_as in ambiguous:
        return False
    named = own_sinks.matching(diagnostic, call.called_as)
    if not named:
        return False
    root, _, rest = call.callee.strip().partition(".")
    imported = entry.names.get(root)
    if imported is None:
        return False
    qualified = f"{imported}.{rest}" if rest else imported
    return any(
        qualified == ".".join(p for p in (t.module, t.owner or t.function) if p) for t in named
    )
