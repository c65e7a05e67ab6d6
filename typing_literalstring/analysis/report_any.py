"""``--report-any``: the parts of type Any that reach a LiteralString (see ``unverified``).

Two runs over copies: one reveals every part of a string built at a sink, the next makes each
Any part a plain str; a call refused only then takes it as LiteralString."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from typing_literalstring.analysis import (
    any_copies,
    callees,
    own_sinks,
    reveal,
    unverified,
    unverified_refusals,
)
from typing_literalstring.analysis.classify import third_party_api
from typing_literalstring.analysis.findings import Finding, source_line
from typing_literalstring.analysis.literal_errors import (
    callee_hint,
    callee_in,
    expected_type,
    is_about_literal_string,
    is_no_matching_overload,
)
from typing_literalstring.analysis.parsed import Parsed
from typing_literalstring.analysis.runs import Runs, inside
from typing_literalstring.checkers import (
    Diagnostic,
)
from typing_literalstring.core.project import (
    search_paths,
)
from typing_literalstring.specs import argv_shell
from typing_literalstring.specs.sinks import (
    DB_API_LABELS,
    UNVERIFIED,
    SinkCall,
    qualified_api,
)


def unverified_findings(
    runs: Runs,
    parsed: dict[str, Parsed],
    root: Path,
    tightened: list[Diagnostic],
    overlay: Path,
    reported: Sequence[Finding],
) -> list[Finding]:
    """``--report-any``: the parts of type Any that reach a LiteralString (see ``unverified``);
    a call with a finding already (``reported``) is not reported again."""
    already: dict[str, set[int]] = {}
    for finding in reported:
        call = parsed[finding.path].sites.at(finding.line, finding.column).call
        if call is not None:
            already.setdefault(finding.path, set()).add(id(call))
    analysed: dict[str, unverified.Instrumented] = {}
    for name, entry in sorted(parsed.items()):
        if inside(Path(name), root):
            found = unverified.analyse(entry.source, entry.tree)
            if found.nodes:
                analysed[name] = found
    if not analysed:
        return []
    # The copies sit in this check's own work folder.  mypy's kept incremental cache would
    # find an unchanged copy fresh and replay its errors under the path of the check that
    # cached it, which names no copy of this one: a second `check --report-any` lost every
    # LS901.  A cache of the run's own (the counts and times are still the check's).
    runs = replace(runs, incremental=None)
    # 1. Reveal every part, and what tells where an Any comes from.
    mirror = runs.workdir / "any-reveal"
    texts = {Path(n): any_copies.reveal_copy(found, n) for n, found in analysed.items()}
    copies = reveal.build_mirror(root, texts, mirror)
    result = runs.run(copies, "any-reveal-run", search_paths(mirror), overlay)
    notes: dict[str, list[str]] = {}
    for d in result.diagnostics:
        if d.path in copies and d.severity != "error":
            notes.setdefault(str(copies[d.path]), []).append(d.message)
    substituted: dict[str, unverified_refusals.Substituted] = {}
    for name, found in analysed.items():
        found.types = unverified.revealed_types(notes.get(name, []))
        copy = unverified_refusals.substitute_copy(found, name)
        if copy.parts:
            substituted[name] = copy
    if not substituted:
        return []
    # 2. Make each Any part plain str: a call refused only now takes it as LiteralString.
    mirror = runs.workdir / "any-substitute"
    texts = {Path(name): copy.source for name, copy in substituted.items()}
    copies = reveal.build_mirror(root, texts, mirror)
    search = [_argv_probe_stub(runs), *search_paths(mirror)]
    result = runs.run(copies, "any-substitute-run", search, overlay)
    refused_before = refused_calls(tightened, parsed, runs.checker.name)
    errors: dict[str, list[tuple[Diagnostic, str | None]]] = {}
    for d in result.diagnostics:
        if d.path in copies and d.severity == "error":
            errors.setdefault(str(copies[d.path]), []).append((d, callee_hint([d])))
    findings: list[Finding] = []
    for name, found_errors in sorted(errors.items()):
        entry, copy, found = parsed[name], substituted[name], analysed[name]
        refusals = unverified_refusals.refusals(
            copy,
            entry.tree,
            entry.source,
            found_errors,
            checker=runs.checker.name,
            sink_calls=entry.sink_calls,
            refused_before=refused_before.get(name, set()) | already.get(name, set()),
        )
        for refusal in refusals:
            parts = unverified_refusals.reported_parts(copy, found, refusal)
            if parts:
                findings.append(
                    _unverified_finding(entry, refusal.call, found.explain(parts), refusal.errors)
                )
    return findings


def _argv_probe_stub(runs: Runs) -> Path:
    """The folder holding the stub of the LS202 probe of the substituted copies
    (``argv_shell.PROBE_STUB``: a shell script given to it must be literal)."""
    folder = runs.workdir / "argv-probe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{argv_shell.PROBE_MODULE}.pyi").write_text(argv_shell.PROBE_STUB, "utf-8")
    return folder


def _unverified_finding(
    entry: Parsed, call: ast.Call, explained: str, errors: list[Diagnostic]
) -> Finding:
    sink = next(
        (c for c in entry.sink_calls if (c.line, c.column) == (call.lineno, call.col_offset + 1)),
        None,
    )
    messages = tuple(d.message for d in errors)
    api = _sink_api(sink, errors, entry) if sink is not None else ""
    api = api or callees.qualify(call, callee_in(messages), entry.names, entry.source)
    return Finding(
        entry.path,
        call.lineno,
        call.col_offset + 1,
        UNVERIFIED,
        api,
        ast.get_source_segment(entry.source, call.func) or "",
        source_line(entry.source, call.lineno),
        (explained, *messages),
    )


def _sink_api(sink: SinkCall, errors: list[Diagnostic], entry: Parsed) -> str:
    """How an LS901 at a call of a sink's name names it: as LS101 does, by the third-party
    specification the refusal matches among the packages the file imports (a Django
    `connection.cursor().execute(sql)` is "Django CursorWrapper.execute", not the table's
    "sqlite3 Connection/Cursor.execute", issue 28); "" when the checker names a callee that
    none of our specifications tightens (psycopg 3's, the project's own), which the caller
    names from its message instead."""
    named = third_party_api(sink, errors, entry)
    if named:
        return named
    told = [d for d in errors if expected_type(d.message) and callee_in((d.message,))]
    if told and not any(own_sinks.matching(d, sink.called_as) for d in told):
        return ""
    qualified = qualified_api(sink, tuple(d.message for d in errors))
    imported = {qualified.split(".")[0] for qualified in entry.names.values()}
    if qualified == sink.api and sink.called_as in DB_API_LABELS and "sqlite3" not in imported:
        # No class named, no sqlite3 imported: pyright's "no overload matches" at psycopg 3's
        # `conn.execute` is no sqlite3 call.
        return DB_API_LABELS[sink.called_as]
    return qualified


def refused_calls(
    errors: list[Diagnostic], parsed: dict[str, Parsed], checker: str
) -> dict[str, set[int]]:
    """The calls that the tightened run already refused a string at, by file: id(call)."""
    out: dict[str, set[int]] = {}
    for d in errors:
        if is_about_literal_string(d, checker) or is_no_matching_overload(d):
            call = parsed[d.path].sites.at(d.line, d.column, callee_hint([d])).call
            if call is not None:
                out.setdefault(d.path, set()).add(id(call))
    return out
