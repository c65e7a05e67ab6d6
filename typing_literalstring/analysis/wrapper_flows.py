"""A flow through the project's own wrappers, once every call has its outcome
(``sink_outcomes``): the way a caller's finding names to the sink and the parameter to
annotate; one finding per flow (a wrapper's inner call folded into its callers' findings); and
the callers' findings a wrapper takes back when the run proves it checks its parameter.

These read the findings of every file together, which ``sink_outcomes`` (one file at a time)
does not; ``commands/check.py`` runs them after all the outcomes.
"""

from __future__ import annotations

from typing import Sequence

from typing_literalstring.analysis.findings import Finding
from typing_literalstring.analysis.wrapper_calls import Wrapper


def through_chain(wrapper: Wrapper) -> tuple[str, ...]:
    """The way a caller's text goes to the sink, the sink's API named at its end."""
    return (*wrapper.chain[:-1], f"{wrapper.chain[-1]} ({wrapper.sink})")


def annotation_hint(wrapper: Wrapper) -> str:
    """The other fix a caller's finding offers: the wrapper's parameter made LiteralString."""
    if wrapper.parameter.startswith("*"):
        return f"Or give `{wrapper.name}` ({wrapper.where}) a parameter annotated LiteralString."
    return (
        f"Or annotate `{wrapper.parameter}` of `{wrapper.name}` ({wrapper.where}) with "
        "LiteralString: the checker then judges each of its callers."
    )


def one_finding_per_flow(
    findings: list[Finding],
    judged: Sequence[Wrapper],
    parameters: dict[tuple[str, int, int], frozenset[str] | None],
) -> list[Finding]:
    """The findings without a wrapper's inner call whose text comes only from the wrapper's
    parameters, where the wrapper's callers were judged: each caller's outcome carries that
    flow (its finding names the parameter to annotate), and one flow is one finding.  A
    wrapper no call of the project reaches keeps its inner finding."""
    reached: dict[tuple[str, int, int], set[str]] = {}
    for wrapper in judged:
        reached.setdefault((wrapper.path, *wrapper.site), set()).add(wrapper.parameter)
    kept: list[Finding] = []
    for finding in findings:
        place = (finding.path, finding.line, finding.column)
        leaves = parameters.get(place)
        if leaves is not None and place in reached and leaves <= reached[place]:
            continue
        kept.append(finding)
    return kept


def folded_proven(dropped: Sequence[Finding], calls: Sequence[tuple[Wrapper, str]]) -> int:
    """How many of the inner calls whose findings ``one_finding_per_flow`` dropped are proven
    through their callers: every call of the project that reaches it (``calls``: each
    wrapper call's outcome) was proven literal, so no flow of the project brings it anything
    else.  The others stay counted with a finding: their flows' findings are their callers'
    (or unverified there)."""
    outcomes: dict[tuple[str, int, int], set[str]] = {}
    for wrapper, outcome in calls:
        outcomes.setdefault((wrapper.path, *wrapper.site), set()).add(outcome)
    proven = 0
    for finding in dropped:
        seen = outcomes.get((finding.path, finding.line, finding.column), set())
        proven += "proven" in seen and seen <= {"proven", "no sink"}
    return proven


def drop_validated_wrappers(
    findings: list[Finding],
    through: Sequence[tuple[Finding, Wrapper]],
    proven: set[tuple[str, int, int]],
) -> tuple[list[Finding], int]:
    """The findings without those made at calls of a wrapper whose own call to the sink (or
    to the next wrapper) the run proved literal: the function checked its parameter against
    literals first (``if column not in VALID_COLUMNS: raise``, which pyright narrows), so
    nothing its callers pass reaches the sink unchecked.  Such a call is proven in turn, for
    the wrappers of that wrapper.  And how many calls that proves."""
    proven = set(proven)
    dropped: set[int] = set()
    changed = True
    while changed:
        changed = False
        for finding, wrapper in through:
            if id(finding) not in dropped and (wrapper.path, *wrapper.site) in proven:
                dropped.add(id(finding))
                proven.add((finding.path, finding.line, finding.column))
                changed = True
    return [f for f in findings if id(f) not in dropped], len(dropped)


__all__ = [
    "annotation_hint",
    "drop_validated_wrappers",
    "folded_proven",
    "one_finding_per_flow",
    "through_chain",
]
