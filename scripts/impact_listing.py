"""IMPACT.md's sections about single findings and labels: the rules with what each labels and
refuses, a seeded sample of the labels read at their site for a reader to audit, every finding
read at its site, the labels read for another rule, and the labels that matched nothing."""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from scripts.impact_assess import Assessment
from scripts.impact_labels import Labels
from scripts.impact_model import Found, ProjectResult

SAMPLE_SEED = 7
SAMPLE_SIZE = 40


def cell(text: str) -> str:
    """Text that fits in a Markdown table's cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def rules_section(assessed: Assessment, labels: Labels) -> list[str]:
    lines = [
        "## Labelling rules",
        "",
        "A finding without a label read at its site takes the first rule that selects it and "
        "whose claim holds for it: each rule's claim is checked on each finding's facts "
        "(`scripts/impact_rules.py`: every non-literal part of the text is one the rule allows, "
        "or a log message without formatting arguments on a standard logger). A finding a rule "
        "selects but whose claim fails is left to the next rule or to a label read at its "
        "site; *refused* counts those, with the first reasons. The places read by hand are the "
        "ones its claim was first read from.",
        "",
    ]
    flows = {f.key for f in assessed.flows()}
    for rule in labels.rules:
        labelled = [f for f in assessed.findings
                    if (x := assessed.label(f)) is not None and x.rule == rule.id]  # fmt: skip
        refused = Counter(why.split(":")[0] for whys in assessed.match.rejected.values()
                          for rid, why in whys if rid == rule.id)  # fmt: skip
        counted = sum(1 for f in labelled if f.key in flows)
        lines.append(
            f"- **{rule.id}** ({', '.join(rule.rules)}"
            + (f"; not {', '.join(rule.except_projects)}" if rule.except_projects else "")
            + (f"; only {', '.join(rule.projects)}" if rule.projects else "")
            + (f"; statement matching `{rule.statement}`" if rule.statement else "")
            + (f"; file matching `{rule.file}`" if rule.file else "")
            + (f"; API matching `{rule.api}`" if rule.api else "")
            + f"; check `{rule.check}`"
            + (f", parts {', '.join(f'`{p}`' for p in rule.parts)}" if rule.parts else "")
            + (f", loggers {', '.join(f'`{p}`' for p in rule.loggers)}" if rule.loggers else "")
            + f"): {rule.verdict}"
            + (f" ({rule.idiom})" if rule.idiom else "")
            + (f", {rule.harm}" if rule.harm else "")
            + (f", {rule.kind}" if rule.kind else "")
            + f". {rule.why} Labels {counted} findings"
            + (
                f" (and {len(labelled) - counted} inner calls counted with their callers)"
                if len(labelled) > counted
                else ""
            )
            + f"; refused {sum(refused.values())}"
            + (
                " (" + "; ".join(f"{why}: {n}" for why, n in refused.most_common(3)) + ")"
                if refused
                else ""
            )
            + f"; {len(rule.sampled)} read by hand: "
            + (", ".join(f"`{s}`" for s in rule.sampled) or "none")
            + "."
        )
    return lines


def sample(assessed: Assessment) -> list[Found]:
    """A seeded sample of the flows labelled benign at their site, in the report's order:
    what a reader who wants to audit the labels reads first."""
    benign = [
        f for f in assessed.flows()
        if (x := assessed.label(f)) is not None and x.verdict == "benign" and not x.rule
    ]  # fmt: skip
    return random.Random(SAMPLE_SEED).sample(benign, min(SAMPLE_SIZE, len(benign)))


def audit_sample(assessed: Assessment) -> list[str]:
    drawn = sample(assessed)
    lines = [
        "## A sample to audit",
        "",
        f"`random.Random({SAMPLE_SEED}).sample` of {len(drawn)} of the findings labelled benign "
        "at their site, in the order of the table below: read them at the pinned sources "
        "(their statements are in `benchmarks/impact/results/`).",
        "",
    ]
    return lines + [f"- {f.project} `{f.file}:{f.number}` {f.rule}" for f in drawn]


def every_finding(results: Sequence[ProjectResult], assessed: Assessment) -> list[str]:
    lines = [
        "## Every finding read at its site, and every unlabelled one",
        "",
        "The findings labelled by a rule are counted above, per rule; all of them, with their "
        "facts, are in `benchmarks/impact/results/`. An inner call counted with its callers "
        "says which.",
        "",
        "| project | file:line | rule | checkers | verdict | why |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        by: dict[object, list[str]] = {}
        for run in r.runs:
            for f in run.findings:
                by.setdefault(f.key, []).append(run.checker)
        for f in r.distinct():
            label = assessed.label(f)
            callers = assessed.folded.get(f.key)
            if label is not None and label.rule and not callers:
                continue
            if label is None:
                verdict = "counted with its callers" if callers else "**unlabelled**"
                why = f"`{cell(f.line)}`"
            else:
                verdict = label.verdict + "".join(
                    f" ({x})" for x in (label.idiom, label.harm, label.kind) if x
                )
                why = cell(label.why)
            if callers:
                verdict += " (counted with " + ", ".join(f"{k[1]}:{k[2]}" for k in callers[:3]) + (
                    f" and {len(callers) - 3} more" if len(callers) > 3 else "") + ")"  # fmt: skip
            lines.append(f"| {f.project} | `{f.file}:{f.number}` | {f.rule} | "
                         f"{', '.join(sorted(set(by[f.key])))} | {verdict} | {why} |")  # fmt: skip
    return lines


def reread(assessed: Assessment) -> list[str]:
    lines = ["## Labels read for a finding of another rule", ""]
    found = [(f, x.read_as) for f in assessed.findings
             if (x := assessed.label(f)) is not None and x.read_as]  # fmt: skip
    if not found:
        return [*lines, "None."]
    lines.append("The statement's label was read when its finding had another rule; it is kept "
                 "until it is read again.")  # fmt: skip
    return [*lines, "", *(f"- {f.project} `{f.file}:{f.number}` {f.rule} (read as {was})"
                          for f, was in found)]  # fmt: skip


def stale(assessed: Assessment) -> list[str]:
    lines = ["## Labels that matched no finding", ""]
    if not assessed.match.stale:
        return [*lines, "None."]
    return [*lines, *(f"- {s.project} `{s.file}:{s.number}` {s.rule} `{cell(s.line)}`"
                      for s in assessed.match.stale)]  # fmt: skip
