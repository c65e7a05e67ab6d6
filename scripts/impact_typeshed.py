"""docs/typeshed-report.md: the per-API recommendation for typeshed, from the same results,
labels and flows as IMPACT.md."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from scripts.impact_assess import UNLABELLED, Assessment
from scripts.impact_labels import CHECKER_MISTAKES, Labels
from scripts.impact_model import Found, ProjectResult
from scripts.impact_report import CHECKERS_SHOWN, api_of, figures, header, rows

# The recommendation's thresholds, over a sink's calls in every project (the report states
# them): fewer calls than this and the sample says too little.
MIN_CALLS = 20
NOW = 0.05  # findings that cost a change without a bug, per call, at most, to tighten now
OVERLOAD = 0.20  # at most, to tighten behind an overload with a str fallback


@dataclass
class Verdict:
    api: str
    rule: str
    sites: int
    proven: int
    unverified: int
    verdicts: Counter[str]
    kinds: Counter[str]  # the mistakes, by kind
    idioms: Counter[str]
    projects: int
    logging: bool
    folded: int = 0  # inner calls counted with their callers

    @property
    def cost(self) -> int:
        """Flows a maintainer would change that are no bug: the benign ones, and the tool's
        mistakes that the checker alone makes with a tightened typeshed (a literal it loses,
        a path no caller takes).  A call that is no sink is not counted: it comes from
        typing-literalstring's own heuristics (sinks matched by name, wrappers linked by a
        method's name), which a typeshed change does not have."""
        return self.verdicts["benign"] + sum(self.kinds[k] for k in CHECKER_MISTAKES)

    def recommendation(self) -> str:
        if self.verdicts[UNLABELLED]:
            return "undecided: unlabelled findings"
        if self.sites < MIN_CALLS:
            return f"not yet: {self.sites} calls measured, fewer than {MIN_CALLS}"
        rate = self.cost / self.sites
        if rate <= NOW:
            return "tighten now"
        if rate <= OVERLOAD:
            return "tighten behind an overload with a `str` fallback"
        return "not yet: too many benign idioms break"


def verdicts(results: Sequence[ProjectResult], assessed: Assessment) -> list[Verdict]:
    """Per API and rule, over both checkers: the larger count of call sites of the two, the
    flows of either."""
    tables = {checker: rows(results, assessed, checker) for checker, _ in CHECKERS_SHOWN}
    keys = sorted({(e.rule, e.api) for table in tables.values() for e in table})
    names = {r.project.name for r in results}
    flows = [f for f in assessed.flows() if f.project in names]
    out: list[Verdict] = []
    for rule, api in keys:
        if not rule or rule.startswith("LS0") or rule.startswith("LS9"):
            continue
        entries = [e for table in tables.values() for e in table if (e.rule, e.api) == (rule, api)]
        found: list[Found] = [f for f in flows if (f.rule, api_of(f.api)) == (rule, api)]
        labelled = [assessed.label(f) for f in found]
        out.append(
            Verdict(
                api,
                rule,
                max(e.sites for e in entries),
                max(e.proven for e in entries),
                max(e.unverified for e in entries),
                Counter(x.verdict if x is not None else UNLABELLED for x in labelled),
                Counter(x.kind for x in labelled if x and x.verdict == "mistake"),
                Counter(x.idiom for x in labelled if x and x.verdict == "benign"),
                len({f.project for f in found}),
                any(e.logging for e in entries),
                max(e.folded for e in entries),
            )
        )
    return out


def render_typeshed(results: Sequence[ProjectResult], assessed: Assessment, labels: Labels) -> str:
    built = [r for r in results if not r.failure]
    values = figures(results, assessed)
    lines = header("Tightening typeshed's str sinks to LiteralString: an experience report")
    lines += [
        f"Measured on {values['built']} projects ({values['kloc']} KLOC) of "
        f"{values['projects']} chosen (IMPACT.md lists them, why each was chosen, and the ones "
        "that did not build). Every figure here is computed from IMPACT.md's data "
        "(`benchmarks/impact/results/` and the labels) by the same script.",
        "",
        "How the recommendation is derived, per API and rule: the calls measured are the larger "
        "count of the two checkers' (pyright; mypy with our plugin); findings are counted as "
        "flows (a wrapper's inner call with its callers'), each place once whichever checker "
        "reported it. The *cost* is what a maintainer must change that is no bug: the benign "
        "findings, and the tool's mistakes the checker alone makes once typeshed is tightened "
        "(a literal the checker loses, a shell path no caller takes: the code must change all "
        "the same); the mistakes that come from typing-literalstring's own heuristics (a call "
        "that is no sink, matched by its name or through a wrapper linked by name) are shown "
        "but not counted, for a typeshed change would not have them. Calls are the ones the "
        "tool judged: for subprocess only the calls with `shell=True` (or a shell flag it "
        "cannot prove False); they are matched by the callee's name, unless the callee is the "
        "project's own definition (judged by what it does), and `sqlite3 "
        "Connection/Cursor.execute` holds every DB-API cursor's `execute` the checker types "
        "(sqlite3's, psycopg's, Django's) until the tool names them apart; logging's methods "
        "count as one API, their calls counted by name. Figures from IMPACT.md's results "
        "(its project table names the commit each was measured at). Fewer than "
        f"{MIN_CALLS} calls: **not yet** (too little evidence). A cost of at most {NOW:.0%} of "
        f"the calls: **tighten now**. At most {OVERLOAD:.0%}: **tighten behind an overload "
        "with a `str` fallback**, the tightened signature only where the call's other "
        "arguments show the risk (as `shell=True` does for subprocess, and formatting "
        "arguments do for logging). More: **not yet**. Real findings are reported beside: "
        "they are what the change buys.",
        "",
        "| API | rule | calls | proven literal | unverified (Any) | real | benign | mistake "
        "(of them the checker's) | unlabelled | cost | projects with findings | recommendation |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    found = verdicts(built, assessed)
    for v in found:
        accepted = v.sites - sum(v.verdicts.values()) - v.folded
        proven = f"accepted {accepted}" if v.logging else str(v.proven)
        checker = sum(v.kinds[k] for k in CHECKER_MISTAKES)
        lines.append(
            f"| {v.api} | {v.rule} | {v.sites} | {proven} | "
            f"{'-' if v.logging else v.unverified} | {v.verdicts['real']} | "
            f"{v.verdicts['benign']} | {v.verdicts['mistake']} ({checker}) | "
            f"{v.verdicts[UNLABELLED]} | {v.cost} | {v.projects} | {v.recommendation()} |"
        )
    lines += ["", "## The benign idioms that break, per API, and the change each needs", ""]
    for v in found:
        if not v.idioms:
            continue
        lines.append(f"- **{v.api}** ({v.rule}): " + "; ".join(
            f"{idiom} ({n}): {labels.idioms.get(idiom, 'change not written yet')}"
            for idiom, n in v.idioms.most_common()
        ))  # fmt: skip
    return "\n".join(lines) + "\n"
