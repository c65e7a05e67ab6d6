"""Findings as text for people, JSON for scripts, and SARIF 2.1.0 for code-scanning services."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typing_literalstring import __version__
from typing_literalstring.analysis.findings import (
    UNVERIFIED_REASONS,
    CheckResult,
    Finding,
    Unverified,
)
from typing_literalstring.core.project import root_relative
from typing_literalstring.report import finding_lines, left_out, regions, rule_pages
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.sinks import (
    NON_LITERAL,
    RULES,
    UNVERIFIED,
    UNVERIFIED_BUILT,
    UNVERIFIED_SINK,
    UNVERIFIED_UNTYPED,
)

FORMATS = ("text", "json", "sarif")
# The rules whose first message says what the checker let through, and why.
_EXPLAINED = (UNVERIFIED, UNVERIFIED_BUILT, UNVERIFIED_UNTYPED, UNVERIFIED_SINK)


@dataclass(frozen=True)
class Shown:
    """What the user asked to see besides the findings."""

    other: bool = False  # the checker's other errors
    unused_suppressions: bool = False
    unverified: bool = False  # the sink calls the checker did not judge
    verbose: bool = False  # what the checker said of each finding


SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# The version of the JSON format (docs/schema/check-output.schema.json): raised when a key is
# removed or changes its meaning; new keys keep it.
JSON_SCHEMA_VERSION = 1
# How many unresolved module names a notice lists before "and N more".
_SHOWN_MODULES = 5


# What a terminal acts on rather than shows: C0 and C1 controls (ESC starts the sequences that
# retitle or clear it, or hide what follows), DEL, and the bidirectional overrides and isolates
# that make code read differently from how it runs ("Trojan Source", CVE-2021-42574).
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(line: str) -> str:
    """``line`` with what came from the checked code made harmless for a terminal: each
    control character written as pyright writes it, ``\\u001b``.  A tab stays a tab."""
    return _CONTROLS.sub(
        lambda m: m.group() if m.group() == "\t" else f"\\u{ord(m.group()):04x}", line
    )


_relative = finding_lines.relative
_sink = finding_lines.sink


def unresolved_notice(result: CheckResult) -> str | None:
    """What to say when imports did not resolve (values from them are unknown to the checker),
    or resolved to packages without types (values from them are Any)."""
    missing = [m for m in result.unresolved if m not in result.untyped]
    said: list[str] = []
    python = result.environment.python if result.environment else "the project's Python"
    if missing:
        said.append(
            f"{_count(missing, 'imported module')} could not be resolved ({_shown(missing)}):"
            f" {result.checker} treats values from them as unknown, so sinks reached through "
            f"them are not checked. Install the project's dependencies into {python}, or point "
            "--python at the environment that has them."
        )
    if result.untyped:
        said.append(
            f"{_count(result.untyped, 'imported module')} installed without types "
            f"({_shown(result.untyped)}): {result.checker} treats values from them as Any, which "
            "a LiteralString accepts unverified. Install their stub packages where they exist "
            "(types-PyYAML for yaml), or run with --report-any to see where such values reach a "
            "sink."
        )
    return " ".join(said) or None


def third_party_notice(result: CheckResult) -> str | None:
    """What to say of the installed third-party packages we have specifications for but could
    not tighten: their sinks are not checked."""
    missed = [
        c
        for c in result.third_party
        if not c.covered and c.why not in (thirdparty.NOT_INSTALLED, thirdparty.NOT_IMPORTED)
    ]
    if not missed:
        return None
    return "not tightened, so their sinks are not checked: " + "; ".join(
        f"{c.package} ({c.why})" for c in missed
    )


def _count(modules: list[str], what: str) -> str:
    return f"{len(modules)} {what}{'s' if len(modules) != 1 else ''}"


def _shown(modules: list[str]) -> str:
    more = len(modules) - _SHOWN_MODULES
    return ", ".join(modules[:_SHOWN_MODULES]) + (f" and {more} more" if more > 0 else "")


def unchecked_notice(result: CheckResult) -> str | None:
    """What to say when the checker refused files: their findings are unknown."""
    if not result.unchecked:
        return None
    reasons: dict[str, None] = {}
    for u in sorted(result.unchecked, key=lambda u: (u.folder, u.module)):
        folder = _relative(u.folder, result.cwd)
        reasons[
            f"{folder} is not a valid package name, so a file below it would be a second "
            f"module {u.module!r}"
            if u.module
            else f"{folder} holds __init__.py under a name that is not a valid package name"
        ] = None
    count = len(result.unchecked)
    return (
        f"{count} file{'s' if count != 1 else ''} not checked: {result.checker} cannot name "
        f"their modules: {'; '.join(reasons)}. Rename the folder, or check these files with "
        "another --checker."
    )


def suppression_notices(result: CheckResult, warn_unused: bool) -> list[str]:
    """``path:line: ...`` for each malformed suppression, and each unused one if asked."""
    lines = [
        f"{_relative(m.path, result.cwd)}:{m.line}: {m.problem}"
        for m in result.malformed_suppressions
    ]
    if warn_unused:
        lines += [
            f"{_relative(u.path, result.cwd)}:{u.line}: unused suppression: no "
            f"{'/'.join(u.codes)} finding in this statement"
            for u in result.unused_suppressions
        ]
    return lines


def set_aside(result: CheckResult) -> str:
    """What the summary says of suppressed and baselined findings ("" when there are none)."""
    parts: list[str] = []
    if result.suppressed:
        parts.append(f"{len(result.suppressed)} suppressed by comments")
    if result.baseline is not None:
        where = _relative(str(result.baseline), result.cwd)
        parts.append(f"{len(result.baselined)} in the baseline {where}")
        if result.stale_baseline_entries:
            stale = result.stale_baseline_entries
            parts.append(
                f"{stale} baseline entr"
                + ("ies no longer match" if stale != 1 else "y no longer matches")
                + " (fixed or changed code: --write-baseline drops "
                + ("them)" if stale != 1 else "it)")
            )
    return "; ".join(parts)


def sink_calls_summary(result: CheckResult, listed: bool) -> str | None:
    """How many sink calls the checker proved literal, reported or let through unverified."""
    if not result.sink_calls:
        return None
    unverified = len(result.unverified)
    reported = result.sink_calls - result.proven - unverified
    reasons = Counter(u.reason for u in result.unverified)
    why = ", ".join(f"{n} {UNVERIFIED_REASONS[r]}" for r, n in sorted(reasons.items()))
    return (
        f"{result.sink_calls} sink call"
        + ("s" if result.sink_calls != 1 else "")
        + f": {result.proven} proven literal, {reported} with a finding, {unverified} unverified"
        + (f" ({why})" if why else "")
        + (" (--show-unverified lists them)" if unverified and not listed else "")
        + "."
    )


def _unverified_line(u: Unverified, cwd: Path) -> str:
    return (
        f"{_relative(u.path, cwd)}:{u.line}:{u.column}: unverified: {u.callee} ({u.api}): "
        f"{UNVERIFIED_REASONS[u.reason]}: {u.detail}"
    )


def text(result: CheckResult, shown: Shown = Shown()) -> str:
    show_other, warn_unused = shown.other, shown.unused_suppressions
    python = f"; Python: {result.environment.describe()}" if result.environment else ""
    lines: list[str] = [
        f"Checked {result.files} file{'s' if result.files != 1 else ''} in "
        f"{_relative(str(result.project), result.cwd)} with {result.checker} "
        f"{result.checker_version}{python}"
    ]
    for finding in result.findings:
        explained: str | None = None
        if shown.verbose and finding.rule is NON_LITERAL:
            explained = f"{result.checker}: {finding.messages[0].splitlines()[0]}"
        elif finding.rule in _EXPLAINED:
            # Our own words, not the checker's: which value is Any and why (a parameter
            # without annotation), which the fix line asks to change.
            explained = f"unverified: {finding.messages[0]}"
        lines.extend(finding_lines.lines(finding, result.cwd, explained))
    if show_other:
        for d in result.other:
            lines.append(
                f"{_relative(d.path, result.cwd)}:{d.line}:{d.column}: {result.checker}: "
                f"{d.message.splitlines()[0]}"
            )
    if shown.unverified:
        lines.extend(_unverified_line(u, result.cwd) for u in result.unverified)
    lines.extend(f"error: {line}" for line in left_out.unparsable_notice(result))
    lines.extend(f"warning: {line}" for line in suppression_notices(result, warn_unused))
    for notice in (
        unchecked_notice(result),
        unresolved_notice(result),
        third_party_notice(result),
        left_out.selection_notice(result),
    ):
        if notice is not None:
            lines.append(f"warning: {notice}")
    skipped = left_out.skipped_notice(result)
    if skipped is not None:
        lines.append(f"note: {skipped}.")
    calls = sink_calls_summary(result, shown.unverified)
    if calls is not None:
        lines.append(calls)
    lines.append(summary(result))
    if result.other and not show_other:
        lines.append(
            f"{len(result.other)} other error{'s' if len(result.other) != 1 else ''} of "
            f"{result.checker}, not about literal strings, not shown (--show-other shows them)."
        )
    return "\n".join(printable(line) for line in lines) + "\n"


def summary(result: CheckResult) -> str:
    """The summary line of the text report: how many findings, of which families, and what was
    set aside; all that ``--quiet`` prints."""
    aside = "; ".join(p for p in (set_aside(result), *left_out.summary_parts(result)) if p)
    families = result.by_family()
    counts = ", ".join(f"{family} {count}" for family, count in sorted(families.items()))
    count = len(result.findings)
    return printable(
        f"{count} finding{'s' if count != 1 else ''}"
        + (f" ({counts})" if counts else "")
        + f" with {result.checker} {result.checker_version}, profile {result.profile}"
        + (f"; {aside}." if aside else ".")
    )


def _finding_json(finding: Finding, cwd: Path, ends: regions.Ends) -> dict[str, Any]:
    end = ends(finding)
    return {
        "path": _relative(finding.path, cwd),
        "line": finding.line,
        "column": finding.column,
        "end_line": end.line if end else None,
        "end_column": end.column if end else None,
        "rule": finding.rule.id,
        "rule_name": finding.rule.name,
        "family": finding.rule.family,
        "sink": finding.api,
        "callee": finding.callee,
        "parameter": finding.parameter,
        "source": finding.source,
        "fix": finding.fix,
        "fingerprint": finding.fingerprint,
        "checker_messages": list(finding.messages),
        "through": list(finding.through),
        "evidence": finding.evidence,
    }


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


def _through(finding: Finding) -> str:
    return f" Through: {' -> '.join(finding.through)}." if finding.through else ""


def _unverified_json(u: Unverified, cwd: Path) -> dict[str, Any]:
    return {
        "path": _relative(u.path, cwd),
        "line": u.line,
        "column": u.column,
        "callee": u.callee,
        "sink": u.api,
        "reason": u.reason,
        "detail": u.detail,
    }


def as_json(result: CheckResult, shown: Shown = Shown()) -> str:
    show_other, warn_unused = shown.other, shown.unused_suppressions
    ends = regions.Ends()
    document: dict[str, Any] = {
        "schema_version": JSON_SCHEMA_VERSION,
        "tool": {"name": "typing-literalstring", "version": __version__},
        "checker": {"name": result.checker, "version": result.checker_version},
        "profile": result.profile,
        "project": str(result.project),
        "python": {
            "path": str(result.environment.python) if result.environment else None,
            "source": result.environment.source if result.environment else None,
        },
        "files": result.files,
        "findings": [_finding_json(f, result.cwd, ends) for f in result.findings],
        "sink_calls": {
            "total": result.sink_calls,
            "proven": result.proven,
            "with_findings": result.sink_calls - result.proven - len(result.unverified),
            "unverified": len(result.unverified),
            "unverified_by_reason": dict(
                sorted(Counter(u.reason for u in result.unverified).items())
            ),
        },
        "suppressed": [
            {
                **_finding_json(f, result.cwd, ends),
                "suppression": {"line": s.line, "rules": list(s.codes), "reason": s.reason},
            }
            for f, s in result.suppressed
        ],
        "baseline": None
        if result.baseline is None
        else {
            "path": _relative(str(result.baseline), result.cwd),
            "findings": [_finding_json(f, result.cwd, ends) for f in result.baselined],
            "stale_entries": result.stale_baseline_entries,
        },
        "suppression_problems": suppression_notices(result, warn_unused),
        "other_errors": len(result.other),
        "third_party": [
            {
                "distribution": c.distribution,
                "package": c.package,
                "covered": c.covered,
                "why": c.why,
            }
            for c in result.third_party
        ],
        "unresolved_imports": {
            "modules": result.unresolved,
            "untyped": result.untyped,
            "errors": result.unresolved_errors,
            "notice": unresolved_notice(result),
        },
        "unparsable": [
            {"path": left_out.unparsable_path(u, result.cwd), "line": u.line, "message": u.message}
            for u in result.unparsable
        ],
        "unchecked": {
            "files": [_relative(u.path, result.cwd) for u in result.unchecked],
            "notice": unchecked_notice(result),
        },
        **left_out.as_json(result),
    }
    if shown.unverified:
        document["unverified"] = [_unverified_json(u, result.cwd) for u in result.unverified]
    if show_other:
        document["other"] = [
            {
                "path": _relative(d.path, result.cwd),
                "line": d.line,
                "column": d.column,
                "message": d.message,
                "code": d.code,
            }
            for d in result.other
        ]
    return json.dumps(document, indent=2) + "\n"


def sarif(result: CheckResult, shown: Shown = Shown()) -> str:
    warn_unused = shown.unused_suppressions
    rules = [rule_pages.sarif_rule(rule) for rule in RULES]
    ends = regions.Ends()
    index = {rule.id: n for n, rule in enumerate(RULES)}
    baseline = (
        _relative(str(result.baseline), result.project) if result.baseline is not None else ""
    )
    marked: list[tuple[Finding, dict[str, Any]]] = [
        *((f, {"baselineState": "new"} if baseline else {}) for f in result.findings),
        *(
            (f, {"suppressions": [{"kind": "inSource", "justification": s.reason}]})
            for f, s in result.suppressed
        ),
        *(
            (
                f,
                {
                    "baselineState": "unchanged",
                    "suppressions": [
                        {"kind": "external", "justification": f"in the baseline {baseline}"}
                    ],
                },
            )
            for f in result.baselined
        ),
    ]
    results = [
        {
            "ruleId": f.rule.id,
            "ruleIndex": index[f.rule.id],
            "level": "error",
            "message": {"text": f"{_sentence(finding_lines.what(f))}{_through(f)} Fix: {f.fix}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {
                            "uri": root_relative(f.path, result.project),
                            "uriBaseId": "%SRCROOT%",
                        },
                        "region": _region(f, ends(f)),
                    }
                }
            ],
            # The baseline's fingerprint: services match results across runs by it.
            "partialFingerprints": {"typingLiteralstring/v2": f.fingerprint},
            **extra,
        }
        for f, extra in marked
    ]
    notifications = left_out.unparsable_notifications(result)
    for notice in (unchecked_notice(result), unresolved_notice(result), third_party_notice(result)):
        if notice is not None:
            notifications.append({"level": "warning", "message": {"text": notice}})
    notifications += left_out.sarif_notifications(result)
    notifications += [
        {"level": "warning", "message": {"text": notice}}
        for notice in suppression_notices(result, warn_unused)
    ]
    calls = sink_calls_summary(result, shown.unverified)
    if calls is not None:
        notifications.append({"level": "note", "message": {"text": calls}})
    if shown.unverified:
        notifications += [_unverified_note(u, result.project) for u in result.unverified]
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "typing-literalstring",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {
                    "%SRCROOT%": {"uri": result.project.as_uri().rstrip("/") + "/"}
                },
                "results": results,
                "invocations": [
                    {
                        "executionSuccessful": not result.unparsable,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "properties": {
                    "checker": result.checker,
                    "checkerVersion": result.checker_version,
                    "profile": result.profile,
                    **left_out.sarif_properties(result),
                },
            }
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def _region(finding: Finding, end: regions.End | None) -> dict[str, Any]:
    """A finding's SARIF region: from its start to the end of its call, with its line."""
    region: dict[str, Any] = {"startLine": finding.line, "startColumn": finding.column}
    if end is not None and (end.line, end.column) > (finding.line, finding.column):
        region.update(endLine=end.line, endColumn=end.column)
    region["snippet"] = {"text": finding.source}
    return region


def _unverified_note(u: Unverified, project: Path) -> dict[str, Any]:
    """A sink call the checker did not judge, as a SARIF notification of level note."""
    return {
        "level": "note",
        "message": {
            "text": f"unverified: {u.callee} ({u.api}): {UNVERIFIED_REASONS[u.reason]}: {u.detail}"
        },
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {
                        "uri": root_relative(u.path, project),
                        "uriBaseId": "%SRCROOT%",
                    },
                    "region": {"startLine": u.line, "startColumn": u.column},
                }
            }
        ],
    }
