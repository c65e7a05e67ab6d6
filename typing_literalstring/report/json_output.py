"""Findings as JSON for scripts (``check --format json``; its schema:
docs/schema/check-output.schema.json)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from typing_literalstring import __version__
from typing_literalstring.analysis.findings import CheckResult, Finding, Unverified
from typing_literalstring.report import finding_lines, left_out, regions
from typing_literalstring.report.chains import ChainPlace, chain_places
from typing_literalstring.report.notices import (
    suppression_notices,
    unchecked_notice,
    unresolved_notice,
)
from typing_literalstring.report.output import Shown
from typing_literalstring.report.texts import Texts

# The version of the JSON format (docs/schema/check-output.schema.json): raised when a key is
# removed or changes its meaning; new keys keep it.
JSON_SCHEMA_VERSION = 1

_relative = finding_lines.relative


class _Through:
    """Where the chains of one output's findings go (``report.chains``, as the language server
    shows them), each file read once."""

    def __init__(self, result: CheckResult) -> None:
        self.texts = Texts()
        every = [*result.findings, *(f for f, _ in result.suppressed), *result.baselined]
        self.places = chain_places(result, self.texts, every)

    def __call__(self, finding: Finding, cwd: Path) -> list[dict[str, Any]]:
        """The call each wrapper of the chain goes on through, in the chain's order: a script
        (the CVE benchmark) can tell a finding at a wrapper's caller reaches the sink's line."""
        return [self._call(p, cwd) for p in self.places.get(finding, ()) if p.call]

    def _call(self, place: ChainPlace, cwd: Path) -> dict[str, Any]:
        line, column = place.start(self.texts)
        return {
            "function": place.function,
            "path": _relative(place.path, cwd),
            "line": line,
            "column": column,
            "call": place.call,
        }


def _finding_json(
    finding: Finding, cwd: Path, ends: regions.Ends, through: _Through
) -> dict[str, Any]:
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
        "through_places": through(finding, cwd),
        "evidence": finding.evidence,
    }


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
    through = _Through(result)
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
        "findings": [_finding_json(f, result.cwd, ends, through) for f in result.findings],
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
                **_finding_json(f, result.cwd, ends, through),
                "suppression": {"line": s.line, "rules": list(s.codes), "reason": s.reason},
            }
            for f, s in result.suppressed
        ],
        "baseline": None
        if result.baseline is None
        else {
            "path": _relative(str(result.baseline), result.cwd),
            "findings": [_finding_json(f, result.cwd, ends, through) for f in result.baselined],
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
