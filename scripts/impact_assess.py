"""Every finding with its label and its flow: what IMPACT.md counts.

One flow, one finding in the counts.  ``check`` may report a wrapper's inner sink call and
each call of the wrapper that passes it a non-literal text ("..., through run_sql"); the
injection is the caller's, and its fix is at the caller or the wrapper's parameter.  So an
inner call (a finding in a function named W) is counted with the findings at the calls of W
whose API says "through W" and that reach the same sink; a call of W inside W itself is no
caller.  W is known by its name alone, as ``check`` names it.  Whatever ``check`` prints, the
counts are of flows: the findings less the inner calls folded into their callers'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from scripts.impact_facts import callee_name, strict_only
from scripts.impact_labels import Label, Labels, Match, literal_contradiction
from scripts.impact_model import Found, Key, ProjectResult

UNLABELLED = "unlabelled"


def wrapper_called(api: str) -> str:
    """The project's function a finding's call goes through (``..., through W``: the call's
    text reaches the sink inside W); "" for a call of the sink itself, and for a call only
    named like a sink (``execute, named like an SQL sink``), which may be any object's."""
    through = re.search(r", through (\w+)", api)
    return through[1] if through else ""


def sink_of(api: str) -> str:
    """The name of the sink a finding's text reaches, whichever way the API says it."""
    return callee_name(api.split(", through ")[0].split(", formatting arguments")[0])


def _function(facts: Mapping[str, object]) -> str:
    return str(facts.get("scope", "")).split(".")[-1]


def folded(
    findings: Sequence[Found], facts: Mapping[Key, Mapping[str, object]]
) -> dict[Key, list[Key]]:
    """Each inner call counted with its callers: its key -> theirs."""
    callers: dict[tuple[str, str], list[Found]] = {}
    for found in findings:
        wrapper = wrapper_called(found.api)
        if wrapper and _function(facts.get(found.key, {})) != wrapper:
            callers.setdefault((found.project, wrapper), []).append(found)
    out: dict[Key, list[Key]] = {}
    for found in findings:
        function = _function(facts.get(found.key, {}))
        if not function:
            continue
        theirs = [
            c.key for c in callers.get((found.project, function), [])
            if c.key != found.key and sink_of(c.api) == sink_of(found.api)
        ]  # fmt: skip
        if theirs:
            out[found.key] = sorted(theirs)
    return out


@dataclass
class Assessment:
    findings: list[Found]  # every distinct finding of the checked projects
    facts: Mapping[Key, Mapping[str, object]]
    match: Match
    folded: dict[Key, list[Key]] = field(default_factory=lambda: {})

    def label(self, found: Found) -> Label | None:
        return self.match.of(found)

    def verdict(self, found: Found) -> str:
        label = self.label(found)
        return label.verdict if label is not None else UNLABELLED

    def strict_only(self, found: Found) -> bool:
        """Whether the finding is the strict profile's alone (impact_facts.strict_only)."""
        return strict_only(found, self.facts.get(found.key, {}))

    def default(self, findings: Sequence[Found]) -> list[Found]:
        """The default profile's findings among ``findings``: the strict run's are a superset,
        for the profiles differ only in asking for a literal log message without formatting
        arguments."""
        return [f for f in findings if not self.strict_only(f)]

    def flows(self, findings: Sequence[Found] | None = None) -> list[Found]:
        """The findings that are flows (not an inner call counted with its callers)."""
        return [f for f in (self.findings if findings is None else findings)
                if f.key not in self.folded]  # fmt: skip

    def unlabelled(self) -> list[Found]:
        return [f for f in self.flows() if self.label(f) is None]

    def wrong(self) -> list[tuple[Found, str]]:
        """Labels that contradict their finding's facts (a benign label on a literal)."""
        out: list[tuple[Found, str]] = []
        for found in self.findings:
            label = self.label(found)
            if label is not None:
                why = literal_contradiction(label, self.facts.get(found.key, {}))
                if why:
                    out.append((found, why))
        return out


def assess(
    results: Sequence[ProjectResult],
    facts: Mapping[Key, Mapping[str, object]],
    project_facts: Mapping[str, Mapping[str, object]],
    labels: Labels,
) -> Assessment:
    built = [r for r in results if not r.failure]
    findings = [f for r in built for f in r.distinct()]
    match = labels.match(findings, facts, project_facts, {r.project.name for r in built if r.runs})
    return Assessment(findings, facts, match, folded(findings, facts))
