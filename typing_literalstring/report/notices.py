"""What every format says besides the findings: the notices of what was not checked, and the
summaries of what was set aside and of the sink calls (``output``, ``json_output``,
``sarif_output``, and the language server's)."""

from __future__ import annotations

from collections import Counter

from typing_literalstring.analysis.findings import UNVERIFIED_REASONS, CheckResult
from typing_literalstring.report import finding_lines
from typing_literalstring.specs import thirdparty

# How many unresolved module names a notice lists before "and N more".
_SHOWN_MODULES = 5

_relative = finding_lines.relative


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
