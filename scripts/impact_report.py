"""IMPACT.md, rendered from the published results (impact_results.py), the labels and the
flows (impact_assess.py).  Every figure in it is computed here, the prose of
benchmarks/impact/notes.md included: it names its figures as ``{{key}}`` (``figures``), never
writes them out.  The per-finding sections are impact_listing.py's; the typeshed report is
impact_typeshed.py's."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import tomlkit

from scripts.benchmark import BANDIT_TESTS, RUFF_RULES
from scripts.impact_assess import UNLABELLED, Assessment
from scripts.impact_labels import MISTAKES, VERDICTS, Labels
from scripts.impact_listing import (
    audit_sample,
    cell,
    every_finding,
    reread,
    rules_section,
    stale,
)
from scripts.impact_model import ProjectResult
from typing_literalstring import __version__
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.specs.sinks import SINK_NAMES

NOTES = Path(__file__).resolve().parent.parent / "benchmarks" / "impact" / "notes.md"
# The places of issue 47's seeded audit sample: their labels now are counted in the prose.
AUDIT = NOTES.with_name("audit.toml")
CHECKERS_SHOWN = (("pyright", "pyright"), ("mypy", "mypy + plugin"))
COLUMNS = (*VERDICTS, UNLABELLED)
_APIS = {api for _, api in SINK_NAMES.values()}
# Every logging method counts as one API (their tightened overloads are the same).
LOGGING_API = "logging: Logger, LoggerAdapter and module debug/info/warning/error/exception/log"
# The row of the LS9xx findings at a logging call without formatting arguments: the strict
# profile's alone (impact_facts.strict_only), apart from the same rule's other logging calls.
STRICT_ONLY = ", no formatting arguments (strict profile)"


def api_of(api: str) -> str:
    """One name per sink, whichever way a finding or an outcome spelled it: a call through the
    project's own wrapper (``..., through query``) counts under the sink it reaches; a call of
    the project's own function typed ``str`` (``execute, named like an SQL sink``) under that."""
    api = re.sub(r" \(its script is added on line \d+\)$", "", api)
    match = re.match(r"(.*?), (through .*|named like .*|formatting arguments .*)$", api)
    base, how = (match[1], match[2]) if match else (api, "")
    if how.startswith("named like"):
        return f"the project's own {base} ({how})"
    if base.startswith("logging"):
        return LOGGING_API
    if base in _APIS:
        return base
    name = re.split(r"[ .]", base)[-1]
    return SINK_NAMES[name][1] if name in SINK_NAMES else base


@dataclass
class Row:
    """One sink API and rule, for one checker, over the projects."""

    api: str
    rule: str
    sites: int = 0
    proven: int = 0
    unverified: int = 0
    folded: int = 0  # inner calls counted with their callers' flows
    verdicts: Counter[str] = field(default_factory=lambda: Counter())  # over flows
    kinds: Counter[str] = field(default_factory=lambda: Counter())  # mistakes by kind
    projects: set[str] = field(default_factory=lambda: set())
    logging: bool = False  # sites counted by name; the checker's proof is not placed

    @property
    def findings(self) -> int:
        """Flows: the findings less the inner calls folded into their callers'."""
        return sum(self.verdicts.values())


def rows(results: Sequence[ProjectResult], assessed: Assessment, checker: str) -> list[Row]:
    """The per-API table of one checker (strict run; LS302 rows and the LS9xx rows of logging
    calls without formatting arguments are the strict profile's)."""
    table: dict[tuple[str, str], Row] = {}

    def row(api: str, rule: str, strict: bool = False) -> Row:
        key = (api_of(api) + (STRICT_ONLY if strict else ""), rule)
        if key not in table:
            table[key] = Row(*key)
        return table[key]

    for r in results:
        run = r.run(checker)
        if run is None:
            continue
        for call in r.logging:
            entry = row(call.api, call.rule)
            entry.logging = True
            entry.sites += 1
        for call in run.proven:
            row(call.api, call.rule or "").proven += 1
        for call in run.unverified:
            row(call.api, _family_rule(call.api)).unverified += 1
        for f in {x.key: x for x in run.findings}.values():
            entry = row(f.api, f.rule, f.rule != "LS302" and assessed.strict_only(f))
            if f.key in assessed.folded:
                entry.folded += 1
                continue
            entry.verdicts[assessed.verdict(f)] += 1
            label = assessed.label(f)
            if label is not None and label.verdict == "mistake":
                entry.kinds[label.kind] += 1
            entry.projects.add(f.project)
    for entry in table.values():
        if not entry.logging:
            entry.sites = entry.proven + entry.unverified + entry.findings + entry.folded
    return sorted(table.values(), key=lambda e: (e.rule, e.api))


def _family_rule(api: str) -> str:
    name = api.rsplit(".", 1)[-1]
    for key, (rule, full) in SINK_NAMES.items():
        if full == api or key == name:
            return rule.id
    return ""


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:.0f}%" if total else "-"


def figures(results: Sequence[ProjectResult], assessed: Assessment) -> dict[str, str]:
    """Every figure the prose may name, by key; verdicts are counted over flows."""
    built = [r for r in results if not r.failure]
    flows = assessed.flows()
    default = assessed.default(flows)
    strict_only = [f for f in flows if assessed.strict_only(f)]
    ls302 = [f for f in strict_only if f.rule == "LS302"]
    ls9_strict = [f for f in strict_only if f.rule.startswith("LS9")]
    labels = {f.key: assessed.label(f) for f in flows}
    by_rule = [f for f in flows if (x := labels[f.key]) is not None and x.rule]
    out: dict[str, str] = {
        "projects": str(len(results)),
        "built": str(len(built)),
        "failed": str(sum(1 for r in results if r.failure and not r.failure.startswith("not run"))),
        "not_run": str(sum(1 for r in results if r.failure.startswith("not run"))),
        "kloc": f"{sum(r.kloc for r in built):.0f}",
        "reported": str(len(assessed.findings)),
        "folded": str(len(assessed.folded)),
        "findings": str(len(flows)),
        "findings_default": str(len(default)),
        "findings_strict": str(len(strict_only)),
        "findings_ls302": str(len(ls302)),
        "findings_ls9_strict": str(len(ls9_strict)),
        "by_rule": str(len(by_rule)),
        "by_site": str(sum(1 for f in flows if labels[f.key] is not None) - len(by_rule)),
        "reread": str(sum(1 for f in flows if (x := labels[f.key]) is not None and x.read_as)),
        "stale": str(len(assessed.match.stale)),
    }
    unverified = [f for f in flows if f.rule.startswith("LS9")]
    sinks = [f for f in default if not f.rule.startswith("LS9")]
    out["findings_ls9"] = str(len(unverified))
    out["findings_sink"] = str(len(sinks))
    groups = (("all", flows), ("default", default), ("strict", strict_only), ("ls302", ls302),
              ("ls9", unverified), ("ls9_strict", ls9_strict), ("sink", sinks))  # fmt: skip
    for name, group in groups:
        counts = Counter(assessed.verdict(f) for f in group)
        for verdict in COLUMNS:
            out[f"{name}_{verdict}"] = str(counts[verdict])
            out[f"{name}_{verdict}_pct"] = _pct(counts[verdict], len(group))
    kinds = Counter(x.kind for x in labels.values() if x is not None and x.verdict == "mistake")
    for kind in MISTAKES:
        out["mistake_" + kind.replace(" ", "_")] = str(kinds[kind])
    for checker, _ in CHECKERS_SHOWN:
        done = [(r, run) for r in built if (run := r.run(checker)) is not None]
        n_default = sum(len(assessed.default(run.findings)) for _, run in done)
        kloc = sum(r.kloc for r, _ in done)
        out[f"{checker}_default"] = str(n_default)
        out[f"{checker}_strict"] = str(sum(len(run.findings) for _, run in done))
        out[f"{checker}_default_per_kloc"] = f"{n_default / kloc:.2f}" if kloc else "-"
        out[f"{checker}_seconds"] = f"{sum(run.seconds for _, run in done):.0f}"
        out[f"{checker}_sink_calls"] = str(sum(run.sink_calls for _, run in done))
        out[f"{checker}_proven"] = str(sum(run.proven_total for _, run in done))
        out[f"{checker}_unverified"] = str(sum(len(run.unverified) for _, run in done))
    harms = Counter(x.harm for x in labels.values() if x is not None and x.verdict == "real")
    out["real_injection"] = str(harms["injection"])
    out["real_lost_record"] = str(harms["lost log record"])
    out.update(audit_figures(assessed))
    return out


def audit_figures(assessed: Assessment) -> dict[str, str]:
    """What the places of the audit sample (benchmarks/impact/audit.toml) are labelled now:
    ``audit_drawn``, ``audit_benign``, ``audit_real``, one ``audit_<kind>`` per mistake kind,
    ``audit_missing`` (no finding there any more)."""
    drawn: list[dict[str, Any]] = []
    if AUDIT.is_file():
        drawn = tomlkit.parse(AUDIT.read_text(encoding="utf-8")).unwrap().get("drawn", [])
    at = {(f.project, f.file, f.number, f.rule): f for f in assessed.findings}
    counts: Counter[str] = Counter()
    for place in drawn:
        found = at.get((place["project"], place["file"], int(place["number"]), place["rule"]))
        label = assessed.label(found) if found is not None else None
        if label is None:
            counts["missing"] += 1
        else:
            counts[
                label.kind.replace(" ", "_") if label.verdict == "mistake" else label.verdict
            ] += 1
    out = {"audit_drawn": str(len(drawn))}
    for name in ("benign", "real", "missing", *(k.replace(" ", "_") for k in MISTAKES)):
        out[f"audit_{name}"] = str(counts[name])
    return out


def fill(text: str, values: dict[str, str]) -> str:
    """``text`` with each ``{{key}}`` replaced by its figure; an unknown key is an error."""

    def one(match: re.Match[str]) -> str:
        if match[1] not in values:
            raise SystemExit(f"notes.md names an unknown figure {{{{{match[1]}}}}}")
        return values[match[1]]

    return re.sub(r"\{\{(\w+)\}\}", one, text)


def written_figures(text: str) -> list[str]:
    """Percentages and per-KLOC rates written out by hand in prose (they must be ``{{key}}``s
    instead, so that they are always the table's)."""
    return re.findall(r"\b\d+(?:\.\d+)?\s?%", re.sub(r"\{\{\w+\}\}", "", text))


def header(title: str) -> list[str]:
    return [
        f"# {title}",
        "",
        f"Generated by `python scripts/impact.py` (typing-literalstring {__version__}; "
        + ", ".join(f"{n} {CHECKERS[n].version()}" for n in ("pyright", "mypy+plugin"))
        + "; Python target 3.12). Do not edit: the project list is "
        "`benchmarks/impact/projects.toml`, the findings `benchmarks/impact/results/`, the "
        "labels `benchmarks/impact/labels/` and `benchmarks/impact/rules.toml`, the prose "
        "`benchmarks/impact/notes.md`.",
        "",
    ]


def render_impact(
    results: Sequence[ProjectResult], assessed: Assessment, labels: Labels, seconds: float
) -> str:
    values = figures(results, assessed)
    built = [r for r in results if not r.failure]
    lines = header("Impact: tightening str APIs to LiteralString on real projects")
    lines += [
        f"{values['projects']} projects, {values['built']} built and checked "
        f"({values['kloc']} KLOC, non-blank lines of the checked folders), "
        f"{values['failed']} not built and {values['not_run']} not run (listed with the "
        f"reason). Checker time summed over the projects: pyright {values['pyright_seconds']} s, "
        f"mypy {values['mypy_seconds']} s; this rendering took {seconds:.0f} s.",
        "",
        "Each project is its sdist from PyPI, checked from its root in a virtual environment "
        "holding its dependencies, by `typing-literalstring check` in the strict profile with "
        "each checker. The default profile's findings are the same run's less the strict "
        "profile's own: the LS302 findings, and the LS9xx findings at a logging call with no "
        "formatting argument after its message (a call the default profile does not judge): "
        "the profiles differ only in requiring a literal log message without formatting "
        "arguments. "
        "A sink call is *proven* when the checker typed its text LiteralString, *unverified* "
        "when a part of it is Any or its receiver is unknown; logging calls are counted by "
        "name (a call named like a logging method), and the checker's proof of them is not "
        "placed, so their sites less findings are *accepted* (literal or Any). Every finding, "
        "with the facts its label and rule were checked on, is in `benchmarks/impact/results/`.",
        "",
        "## Projects",
        "",
        "| project | kind | why | KLOC | pyright default / strict | mypy default / strict "
        "| sink calls (pyright): proven, unverified | time pyright / mypy | unresolved imports "
        "pyright / mypy | measured at |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(_project_row(r, assessed))
    lines += ["", *_per_api_tables(built, assessed), ""]
    lines += _totals(assessed, labels, values)
    lines += ["", *_real(assessed)]
    lines += ["", *_tools(built), ""]
    lines += rules_section(assessed, labels)
    lines += ["", *audit_sample(assessed)]
    lines += ["", *every_finding(built, assessed)]
    lines += ["", *reread(assessed)]
    lines += ["", *stale(assessed)]
    if NOTES.is_file():
        lines += ["", fill(NOTES.read_text(encoding="utf-8").rstrip(), values)]
    return "\n".join(lines) + "\n"


def _project_row(r: ProjectResult, assessed: Assessment) -> str:
    p = r.project
    if r.failure:
        status = "**not run**" if r.failure.startswith("not run") else "**not built**"
        return (f"| {p.requirement} | {p.kind} | {p.why} | - | {status}: {cell(r.failure)} "
                "| | | | | |")  # fmt: skip
    cells: list[str] = []
    for checker, _ in CHECKERS_SHOWN:
        run = r.run(checker)
        cells.append(
            f"{len(assessed.default(run.findings))} / {len(run.findings)}" if run else
            "failed: " + cell(r.failed_runs.get(checker, "not run"))
        )  # fmt: skip
    pyright, mypy = r.run("pyright"), r.run("mypy")
    calls = (f"{pyright.sink_calls}: {pyright.proven_total}, {len(pyright.unverified)}"
             if pyright else "-")  # fmt: skip
    times = " / ".join(f"{run.seconds:.0f} s" if run and run.seconds else "-"
                       for run in (pyright, mypy))  # fmt: skip
    unresolved = " / ".join(str(run.unresolved) if run else "-" for run in (pyright, mypy))
    return (f"| {p.requirement} | {p.kind} | {p.why} | {r.kloc:.1f} | {cells[0]} | {cells[1]} "
            f"| {calls} | {times} | {unresolved} | {r.tool or 'before 245e6c5'} |")  # fmt: skip


def _per_api_tables(results: Sequence[ProjectResult], assessed: Assessment) -> list[str]:
    lines = [
        "## Per sink API",
        "",
        "Each call site once per checker. *findings* are the flows: a wrapper's inner call is "
        "counted with the findings at its callers (*folded*). They are split by their labels: "
        "real (an injection, or a lost log record), benign, the tool's mistake, unlabelled. "
        "LS302 rows are the strict profile's alone, and so are the LS9xx rows of logging calls "
        f"with no formatting argument after the message (*{STRICT_ONLY[2:]}*). Rules LS001 and "
        "LS9xx are not a sink's: they are listed under the API their finding names.",
        "",
    ]
    for checker, shown in CHECKERS_SHOWN:
        lines += [
            f"### {shown}",
            "",
            "| API | rule | call sites | proven literal | findings | folded | real | benign "
            "| mistake | unlabelled | unverified (Any) | projects with findings |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for e in rows(results, assessed, checker):
            proven = "accepted " + str(e.sites - e.findings - e.folded) if e.logging else str(
                e.proven)  # fmt: skip
            lines.append(
                f"| {e.api} | {e.rule or '-'} | {e.sites} | {proven} | {e.findings} | "
                f"{e.folded} | "
                + " | ".join(str(e.verdicts[v]) for v in COLUMNS)
                + f" | {e.unverified if not e.logging else '-'} | {len(e.projects)} |"
            )
        lines.append("")
    return lines


def _totals(assessed: Assessment, labels: Labels, v: dict[str, str]) -> list[str]:
    lines = [
        "## Totals",
        "",
        f"{v['reported']} distinct findings (a place and rule once, whichever checker reported "
        f"it); {v['folded']} of them are a wrapper's inner call counted with its callers, so "
        f"{v['findings']} flows in {v['kloc']} KLOC: {v['all_real']} real ({v['all_real_pct']}; "
        f"{v['real_injection']} injections, {v['real_lost_record']} lost log records), "
        f"{v['all_benign']} benign ({v['all_benign_pct']}), {v['all_mistake']} the tool's "
        f"mistakes ({v['all_mistake_pct']}: {v['mistake_literal_in_fact']} literal in fact, "
        f"{v['mistake_unreached_path']} on a path no caller takes, {v['mistake_not_a_sink']} "
        f"no sink), {v['all_unlabelled']} unlabelled ({v['all_unlabelled_pct']}). Of them "
        f"{v['findings_default']} in the default profile and {v['findings_strict']} in the "
        f"strict profile alone ({v['findings_ls302']} LS302, {v['findings_ls9_strict']} LS9xx "
        f"at a log call without formatting arguments). {v['by_site']} were read at their "
        f"call site and {v['by_rule']} labelled by a rule whose claim was checked on each "
        "(below).",
        "",
        "| verdict by rule | " + " | ".join(COLUMNS) + " |",
        "|---|---|---|---|---|",
    ]
    flows = assessed.flows()
    for rule in sorted({f.rule for f in flows}):
        row = Counter(assessed.verdict(f) for f in flows if f.rule == rule)
        lines.append(f"| {rule} | " + " | ".join(str(row[x]) for x in COLUMNS) + " |")
    idioms = Counter(
        x.idiom for f in flows if (x := assessed.label(f)) is not None and x.verdict == "benign"
    )
    lines += ["", "Benign idioms, by frequency, with the change each needs:", "",
              "| idiom | findings | the change |", "|---|---|---|"]  # fmt: skip
    lines += [
        f"| {idiom} | {n} | {labels.idioms.get(idiom, '(not written yet)')} |"
        for idiom, n in idioms.most_common()
    ]
    return lines


def _real(assessed: Assessment) -> list[str]:
    lines = [
        "## The real findings",
        "",
        "Each read at its call site; *harm* says what happens: an injection (of SQL, a shell "
        "command or markup) or a lost log record. One flow each: an inner call counted with "
        "its callers is not listed again.",
        "",
        "| project | file:line | rule | harm | why |",
        "|---|---|---|---|---|",
    ]
    for f in assessed.flows():
        label = assessed.label(f)
        if label is not None and label.verdict == "real":
            lines.append(f"| {f.project} | `{f.file}:{f.number}` | {f.rule} | {label.harm} "
                         f"| {cell(label.why)} |")  # fmt: skip
    return lines


def _tools(results: Sequence[ProjectResult]) -> list[str]:
    lines = [
        "## ruff and bandit on the same trees",
        "",
        "ruff's rules: " + ", ".join(sorted(RUFF_RULES)) + "; bandit's tests: "
        + ", ".join(sorted(BANDIT_TESTS)) + ".",
        "",
        "| project | ruff | bandit |",
        "|---|---|---|",
    ]  # fmt: skip
    for r in results:
        ruff = ", ".join(f"{c} {n}" for c, n in sorted(r.ruff.items())) or "none"
        bandit = ", ".join(f"{c} {n}" for c, n in sorted(r.bandit.items())) or "none"
        lines.append(f"| {r.project.requirement} | {ruff} | {bandit} |")
    return lines
