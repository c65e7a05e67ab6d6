"""From the tightened run's errors to findings: each error is a sink finding of its family, an
LS001 (a LiteralString of the project or a library refused a str), an unresolved import, or
one of the checker's other errors; then each finding is fingerprinted, given its fix and
matched against the suppression comments."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from pathlib import Path

from typing_literalstring.analysis import (
    callees,
    fix_hints,
    flow,
    own_sinks,
)
from typing_literalstring.analysis.findings import PSYCOPG, CheckResult, Finding, source_line
from typing_literalstring.analysis.literal_errors import (
    callee_hint,
    callee_in,
    is_no_matching_overload,
    is_untyped_module,
    unresolved_module,
)
from typing_literalstring.analysis.lost_literals import (
    fills_an_inferred_literal_list,
    literal_lost_in_typeshed,
)
from typing_literalstring.analysis.parsed import Parsed, sink_call_of
from typing_literalstring.analysis.runs import Key, error_key
from typing_literalstring.analysis.statements import all_nodes, imported_packages
from typing_literalstring.analysis.suppressions import Malformed, Suppression
from typing_literalstring.checkers import (
    Diagnostic,
)
from typing_literalstring.specs.sinks import (
    NON_LITERAL,
    SQL,
    SinkCall,
    qualified_api,
)
from typing_literalstring.specs.typeshed_literals import (
    requires_literal_string,
)


def _stub_finding(call: SinkCall, diagnostics: list[Diagnostic], entry: Parsed) -> Finding:
    messages = tuple(d.message for d in diagnostics)
    return Finding(
        diagnostics[0].path,
        call.line,
        call.column,
        call.rule,
        third_party_api(call, diagnostics, entry) or _table_api(call, messages, entry),
        call.callee,
        source_line(entry.source, call.line),
        messages,
    )


def _table_api(call: SinkCall, messages: tuple[str, ...], entry: Parsed) -> str:
    """The sink's name when no specification of an imported package matched: as the checker's
    message names its class, else by the file's imports (an `execute` in a file without
    sqlite3 is not sqlite3's)."""
    qualified = qualified_api(call, messages)
    if qualified != call.api:
        return qualified
    return own_sinks.named_by_imports(call.called_as, qualified, imported_packages(entry.tree))


# The class a message names: zuban's `"execute" of "Cursor"`, ty's `Cursor.execute`.
_CLASS_NAMED = re.compile(r'"\w+" of "(\w+)"|`(?:\w+\.)*(\w+)\.\w+`')


def third_party_api(call: SinkCall, diagnostics: list[Diagnostic], entry: Parsed) -> str:
    """A third-party sink's name, where the messages tell which one it is; else, when they
    name only the method (zuban's "No overload variant of "execute" of "Cursor""), the
    sinks of that name in the distributions the file imports ("" when none)."""
    called_as = call.called_as
    imported = {qualified.split(".")[0] for qualified in entry.names.values()}
    imported |= imported_packages(entry.tree)  # also under `if TYPE_CHECKING:`
    # Only a package the file imports: sqlite3's and aiosqlite's `execute(sql: LiteralString)`
    # read alike (beets 2.14.1 was told aiosqlite).
    named = {
        t.api
        for d in diagnostics
        for t in own_sinks.matching(d, called_as)
        if t.distribution and t.module.split(".")[0] in imported
    }
    if not named and not any(own_sinks.matching(d, called_as) for d in diagnostics):
        classes = {c for d in diagnostics for m in _CLASS_NAMED.findall(d.message) for c in m if c}
        named = {
            t.api
            for t in own_sinks.tightened_parameters()
            if t.distribution
            and t.called_as == called_as
            and t.module.split(".")[0] in imported
            and (not classes or t.owner in classes)
            and "sqlite3" not in imported
        }
    return " or ".join(sorted(named))


def _literal_finding(parsed: Parsed, diagnostics: list[Diagnostic]) -> Finding:
    """An LS001 finding: the checker's own LiteralString error, with the callee named."""
    first = diagnostics[0]
    messages = tuple(d.message for d in diagnostics)
    named = callee_in(messages)
    site = parsed.sites.at(first.line, first.column, callee_hint(diagnostics))
    callee = ""
    api = ""
    line, column = first.line, first.column
    if site.call is not None:
        callee = ast.get_source_segment(parsed.source, site.call.func) or ""
        api = callees.qualify(site.call, named, parsed.names, parsed.source)
        line, column = site.call.lineno, site.call.col_offset + 1
    elif named is not None and named.function:
        api = named.function
    if not api:
        function = site.function.name if site.function else ""
        if site.kind == "return" and function:
            owner = f"{parsed.module}." if parsed.module else ""
            api = f"the return value of {owner}{function}"
        else:
            api = "a variable, attribute or item declared LiteralString"
    return Finding(
        first.path,
        line,
        column,
        NON_LITERAL,
        api,
        callee,
        source_line(parsed.source, line),
        messages,
        named.parameter if named is not None else "",
        any(q.split(".")[0] in PSYCOPG for q in (api, *parsed.names.values())),
    )


def _string_argument(entry: Parsed, finding: Finding) -> ast.expr | None:
    """The argument that carries the string a finding is about: the one its parameter names,
    else the first."""
    call = entry.sites.at(finding.line, finding.column).call
    if call is None:
        return None
    for keyword in call.keywords:
        if keyword.arg and keyword.arg == finding.parameter:
            return keyword.value
    return call.args[0] if call.args else None


def _sink_family(entry: Parsed, finding: Finding) -> str:
    """The family of the sink called where the finding is ("" when the call is none of ours):
    an LS001 or LS901 at `Markup(...)` is markup, whose fix is no SQL helper."""
    return next(
        (
            c.rule.family
            for c in entry.sink_calls
            if (c.line, c.column) == (finding.line, finding.column)
        ),
        "",
    )


def finish_findings(result: CheckResult, parsed: dict[str, Parsed]) -> None:
    """Fingerprint each finding and say which fix applies, and set apart those a suppression
    comment names."""
    used: set[Suppression] = set()
    kept: list[Finding] = []
    for finding in result.findings:
        entry = parsed[finding.path]
        family = _sink_family(entry, finding)
        fingerprinted = replace(
            finding,
            # psycopg's composition fixes SQL only, not markup built in a file that uses it.
            uses_psycopg=finding.uses_psycopg and family in ("", SQL.family),
            # What the user wrote, even where its newer grammar was rewritten for our parser.
            source=source_line(entry.read.text, finding.line) if entry.read else finding.source,
            fingerprint=entry.statements.fingerprint(
                finding.line,
                finding.rule.id,
                finding.sink,
                flow=flow.building_lines(entry.tree, _string_argument(entry, finding)),
            ),
            # A hint the finding came with (a wrapper's parameter to annotate) comes last.
            hint=" ".join(
                h
                for h in (
                    fix_hints.hint(
                        finding.rule,
                        _string_argument(entry, finding),
                        entry.constants_declared_str,
                        family,
                    ),
                    finding.hint,
                )
                if h
            ),
        )
        span = entry.statements.span(finding.line)
        matching = [
            s
            for s in entry.suppressions
            if isinstance(s, Suppression) and s.line in span and finding.rule.id in s.codes
        ]
        if matching:
            used.add(matching[0])
            result.suppressed.append((fingerprinted, matching[0]))
        else:
            kept.append(fingerprinted)
    result.findings = kept
    for entry in parsed.values():
        for comment in entry.suppressions:
            if isinstance(comment, Malformed):
                result.malformed_suppressions.append(comment)
            elif comment not in used:
                result.unused_suppressions.append(comment)


@dataclass(frozen=True)
class Stdlib:
    """The checker's typeshed, and the standard library's top-level modules as it lists them."""

    typeshed: Path
    modules: frozenset[str]


def _place(entry: Parsed, diagnostic: Diagnostic) -> tuple[str, int, int]:
    """Where an error falls: the call it is about, else its own position."""
    site = entry.sites.at(diagnostic.line, diagnostic.column, callee_hint([diagnostic]))
    if site.call is not None:
        return (diagnostic.path, site.call.lineno, site.call.col_offset)
    return (diagnostic.path, diagnostic.line, diagnostic.column)


def classify(
    errors: list[Diagnostic],
    from_stubs: set[Key],
    about: set[Key],
    parsed: dict[str, Parsed],
    result: CheckResult,
    stdlib: Stdlib,
) -> list[Finding]:
    """Sort the tightened run's errors into findings, unresolved imports and other errors."""
    at_stub_sink: dict[tuple[str, int, int], tuple[SinkCall, list[Diagnostic]]] = {}
    literal: dict[tuple[str, int, int], list[Diagnostic]] = {}
    rest: list[Diagnostic] = []
    unresolved: dict[str, None] = {}
    for diagnostic in errors:
        entry = parsed[diagnostic.path]
        module = unresolved_module(diagnostic)
        if module is not None:
            unresolved[module] = None
            result.unresolved_errors += 1
            if is_untyped_module(diagnostic) and module not in result.untyped:
                result.untyped.append(module)
            continue
        call = sink_call_of(entry, diagnostic) if error_key(diagnostic) in from_stubs else None
        if call is not None:
            key = (diagnostic.path, call.line, call.column)
            at_stub_sink.setdefault(key, (call, []))[1].append(diagnostic)
        elif error_key(diagnostic) in about:
            literal.setdefault(_place(entry, diagnostic), []).append(diagnostic)
        else:
            rest.append(diagnostic)
    grouped = {path for path, _, _ in literal}
    for diagnostic in rest:
        # pyright follows "no overloads match" with the last overload's complaint about the
        # same argument: part of the same finding.
        group = (
            literal.get(_place(parsed[diagnostic.path], diagnostic))
            if diagnostic.path in grouped
            else None
        )
        if group is not None and any(is_no_matching_overload(d) for d in group):
            group.append(diagnostic)
        else:
            result.other.append(diagnostic)
    result.unresolved = list(unresolved)
    findings = [
        _stub_finding(call, group, parsed[group[0].path]) for call, group in at_stub_sink.values()
    ]
    # A call the stubs already made a sink finding of is not reported twice.
    stub_calls = {(f.path, f.line, f.column) for f in findings}
    for group in literal.values():
        entry = parsed[group[0].path]
        finding = _literal_finding(entry, group)
        if (
            finding.api.split(".")[0] in stdlib.modules
            and not _named_by_a_local(entry, finding)
            and not requires_literal_string(stdlib.typeshed, finding.api)
        ):
            # typeshed's literal-preserving overloads (os.path.join, str methods) take any str in
            # another overload: an error there is about something else, such as None or bytes
            # (borgmatic: `os.path.join(state_directory, ...)` with `str | None`).
            result.other.extend(group)
        elif fills_an_inferred_literal_list(entry, group[0]) or literal_lost_in_typeshed(
            entry, group[0], stdlib.typeshed
        ):
            result.other.extend(group)
        elif (finding.path, finding.line, finding.column) not in stub_calls:
            findings.append(finding)
    result.other.sort()
    return findings


def _named_by_a_local(entry: Parsed, finding: Finding) -> bool:
    """Whether the finding's callee is named by its text alone, through a name the file
    neither imports nor defines at its top (`cmd.append`, with a local `cmd`): a local that
    shares a standard module's name (`cmd`, `string`, `code`) is no call of that module."""
    head = finding.callee.split(".")[0].strip()
    if not finding.callee or finding.api != finding.callee or head in entry.names:
        return False
    # An import inside a function (`def f(): import os`) binds the module too.
    return not any(
        (alias.asname or alias.name.split(".")[0]) == head
        for node in all_nodes(entry.tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    )
