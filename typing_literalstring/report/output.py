"""Findings as text for people, and what every format is given (``FORMATS``, ``Shown``).

JSON for scripts is ``json_output``'s, SARIF 2.1.0 for code-scanning services
``sarif_output``'s; what they all say besides the findings, ``notices``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from typing_literalstring.analysis.findings import (
    UNVERIFIED_REASONS,
    CheckResult,
    Unverified,
)
from typing_literalstring.report import finding_lines, left_out
from typing_literalstring.report.notices import (
    set_aside,
    sink_calls_summary,
    suppression_notices,
    third_party_notice,
    unchecked_notice,
    unresolved_notice,
)
from typing_literalstring.specs.sinks import (
    NON_LITERAL,
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
