"""Findings as text for people, JSON for scripts, and SARIF 2.1.0 for code-scanning services."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import __version__
from .check import CheckResult, Finding
from .sinks import RULES

FORMATS = ("text", "json", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _relative(path: str, root: Path) -> str:
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        return Path(path).as_posix()


def text(result: CheckResult, show_other: bool = False) -> str:
    lines: list[str] = []
    for finding in result.findings:
        where = f"{_relative(finding.path, result.project)}:{finding.line}:{finding.column}"
        sink = (
            finding.callee if finding.callee == finding.api else f"{finding.callee}: {finding.api}"
        )
        lines.append(
            f"{where}: {finding.rule.id} {finding.rule.name}: {finding.rule.summary.rstrip('.')} "
            f"({sink})"
        )
        lines.append(f"    {finding.source}")
        lines.append(f"    fix: {finding.rule.fix}")
    if show_other:
        for d in result.other:
            lines.append(
                f"{_relative(d.path, result.project)}:{d.line}:{d.column}: {result.checker}: "
                f"{d.message.splitlines()[0]}"
            )
    families = result.by_family()
    summary = ", ".join(f"{family} {count}" for family, count in sorted(families.items()))
    count = len(result.findings)
    lines.append(
        f"{count} finding{'s' if count != 1 else ''}"
        + (f" ({summary})" if summary else "")
        + f" with {result.checker} {result.checker_version}, profile {result.profile}."
    )
    if result.other and not show_other:
        lines.append(
            f"{len(result.other)} other error{'s' if len(result.other) != 1 else ''} of "
            f"{result.checker}, not about literal strings, not shown (--show-other shows them)."
        )
    return "\n".join(lines) + "\n"


def _finding_json(finding: Finding, root: Path) -> dict[str, Any]:
    return {
        "path": _relative(finding.path, root),
        "line": finding.line,
        "column": finding.column,
        "rule": finding.rule.id,
        "rule_name": finding.rule.name,
        "family": finding.rule.family,
        "sink": finding.api,
        "callee": finding.callee,
        "source": finding.source,
        "fix": finding.rule.fix,
        "checker_messages": list(finding.messages),
    }


def as_json(result: CheckResult, show_other: bool = False) -> str:
    document: dict[str, Any] = {
        "tool": {"name": "typing-literalstring", "version": __version__},
        "checker": {"name": result.checker, "version": result.checker_version},
        "profile": result.profile,
        "findings": [_finding_json(f, result.project) for f in result.findings],
        "other_errors": len(result.other),
    }
    if show_other:
        document["other"] = [
            {
                "path": _relative(d.path, result.project),
                "line": d.line,
                "column": d.column,
                "message": d.message,
                "code": d.code,
            }
            for d in result.other
        ]
    return json.dumps(document, indent=2) + "\n"


def sarif(result: CheckResult) -> str:
    rules = [
        {
            "id": rule.id,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "help": {"text": rule.fix},
            "properties": {"tags": ["security", rule.family]},
            "defaultConfiguration": {"level": "error"},
        }
        for rule in RULES
    ]
    index = {rule.id: n for n, rule in enumerate(RULES)}
    results = [
        {
            "ruleId": f.rule.id,
            "ruleIndex": index[f.rule.id],
            "level": "error",
            "message": {"text": f"{f.rule.summary} Sink: {f.api} ({f.callee}). Fix: {f.rule.fix}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {
                            "uri": _relative(f.path, result.project),
                            "uriBaseId": "%SRCROOT%",
                        },
                        "region": {
                            "startLine": f.line,
                            "startColumn": f.column,
                            "snippet": {"text": f.source},
                        },
                    }
                }
            ],
        }
        for f in result.findings
    ]
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
                "properties": {
                    "checker": result.checker,
                    "checkerVersion": result.checker_version,
                    "profile": result.profile,
                },
            }
        ],
    }
    return json.dumps(document, indent=2) + "\n"
