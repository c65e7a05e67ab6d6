"""Findings as SARIF 2.1.0 for code-scanning services (``check --format sarif``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from typing_literalstring import __version__
from typing_literalstring.analysis.findings import (
    UNVERIFIED_REASONS,
    CheckResult,
    Finding,
    Unverified,
)
from typing_literalstring.core.project import root_relative
from typing_literalstring.report import finding_lines, left_out, regions, rule_pages
from typing_literalstring.report.chains import ChainPlace, chain_places
from typing_literalstring.report.notices import (
    sink_calls_summary,
    suppression_notices,
    third_party_notice,
    unchecked_notice,
    unresolved_notice,
)
from typing_literalstring.report.output import Shown
from typing_literalstring.report.texts import Texts
from typing_literalstring.specs.sinks import RULES

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

_relative = finding_lines.relative


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


def _through(finding: Finding) -> str:
    return f" Through: {' -> '.join(finding.through)}." if finding.through else ""


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
    texts = Texts()
    places = chain_places(result, texts, [f for f, _ in marked])
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
            **_related(places.get(f, ()), texts, result.project),
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


def _related(places: Sequence[ChainPlace], texts: Texts, project: Path) -> dict[str, Any]:
    """A chain's places (``report.chains``, as the language server's related information):
    each wrapper's parameter the text comes in by and the call it goes on through."""
    if not places:
        return {}
    related: list[dict[str, Any]] = []
    for n, place in enumerate(places):
        line, column = place.start(texts)
        related.append(
            {
                "id": n,
                "physicalLocation": {
                    "artifactLocation": {
                        "uri": root_relative(place.path, project),
                        "uriBaseId": "%SRCROOT%",
                    },
                    "region": {"startLine": line, "startColumn": column},
                },
                "message": {"text": place.message},
            }
        )
    return {"relatedLocations": related}


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
