"""IMPACT.md and docs/typeshed-report.md, rendered from scripts/impact.py's results and the
labels.  Every figure in them is computed here, the prose of benchmarks/impact/notes.md
included: it names its figures as ``{{key}}`` (``figures``), never writes them out."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from scripts.benchmark import BANDIT_TESTS, RUFF_RULES
from scripts.impact_labels import VERDICTS, Label, Labels
from scripts.impact_model import Found, ProjectResult
from typing_literalstring import __version__
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.specs.sinks import SINK_NAMES

NOTES = Path(__file__).resolve().parent.parent / "benchmarks" / "impact" / "notes.md"
CHECKERS_SHOWN = (("pyright", "pyright"), ("mypy", "mypy + plugin"))
_APIS = {api for _, api in SINK_NAMES.values()}
# Every logging method counts as one API (their tightened overloads are the same).
LOGGING_API = "logging: Logger, LoggerAdapter and module debug/info/warning/error/exception/log"
# The recommendation's thresholds, over a sink's calls in every project (the typeshed report
# states them): fewer calls than this and the sample says too little.
MIN_CALLS = 20
NOW = 0.05  # benign and mistaken findings per call, at most, to tighten now
OVERLOAD = 0.20  # at most, to tighten behind an overload with a str fallback


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
    verdicts: Counter[str] = field(default_factory=lambda: Counter())
    projects: set[str] = field(default_factory=lambda: set())
    logging: bool = False  # sites counted by name; the checker's proof is not placed

    @property
    def findings(self) -> int:
        return sum(self.verdicts.values())


def _verdict(label: Label | None) -> str:
    return label.verdict if label is not None else "unlabelled"


def rows(results: Sequence[ProjectResult], labels: Labels, checker: str) -> list[Row]:
    """The per-API table of one checker (strict run; LS302 rows are the strict profile's)."""
    table: dict[tuple[str, str], Row] = {}

    def row(api: str, rule: str) -> Row:
        key = (api_of(api), rule)
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
            entry = row(call.api, call.rule or "")
            entry.proven += 1
        for call in run.unverified:
            entry = row(call.api, _family_rule(call.api))
            entry.unverified += 1
        for f in {x.key: x for x in run.findings}.values():
            entry = row(f.api, f.rule)
            entry.verdicts[_verdict(labels.of(f))] += 1
            entry.projects.add(f.project)
    for entry in table.values():
        if not entry.logging:
            entry.sites = entry.proven + entry.unverified + entry.findings
    # proven calls are recorded under their family's rule; fold rule-less rows in
    return sorted(table.values(), key=lambda e: (e.rule, e.api))


def _family_rule(api: str) -> str:
    name = api.rsplit(".", 1)[-1]
    for key, (rule, full) in SINK_NAMES.items():
        if full == api or key == name:
            return rule.id
    return ""


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:.0f}%" if total else "-"


def figures(results: Sequence[ProjectResult], labels: Labels) -> dict[str, str]:
    """Every figure the prose may name, by key."""
    built = [r for r in results if not r.failure]
    everything = [f for r in built for f in r.distinct()]
    default = [f for f in everything if f.rule != "LS302"]
    strict_only = [f for f in everything if f.rule == "LS302"]
    out: dict[str, str] = {
        "projects": str(len(results)),
        "built": str(len(built)),
        "failed": str(sum(1 for r in results if r.failure and not r.failure.startswith("not run"))),
        "not_run": str(sum(1 for r in results if r.failure.startswith("not run"))),
        "kloc": f"{sum(r.kloc for r in built):.0f}",
        "findings": str(len(everything)),
        "findings_default": str(len(default)),
        "findings_ls302": str(len(strict_only)),
    }
    unverified = [f for f in everything if f.rule.startswith("LS9")]
    sinks = [f for f in default if not f.rule.startswith("LS9")]
    out["findings_ls9"] = str(len(unverified))
    out["findings_sink"] = str(len(sinks))
    groups = (
        ("all", everything),
        ("default", default),
        ("ls302", strict_only),
        ("ls9", unverified),
        ("sink", sinks),
    )
    for name, group in groups:
        counts = Counter(_verdict(labels.of(f)) for f in group)
        for verdict in (*VERDICTS, "unlabelled"):
            out[f"{name}_{verdict}"] = str(counts[verdict])
            out[f"{name}_{verdict}_pct"] = _pct(counts[verdict], len(group))
    for checker, _ in CHECKERS_SHOWN:
        runs = [(r, r.run(checker)) for r in built]
        done = [(r, run) for r, run in runs if run is not None]
        n_default = sum(len(run.default_findings()) for _, run in done)
        kloc = sum(r.kloc for r, _ in done)
        out[f"{checker}_default"] = str(n_default)
        out[f"{checker}_strict"] = str(sum(len(run.findings) for _, run in done))
        out[f"{checker}_default_per_kloc"] = f"{n_default / kloc:.2f}" if kloc else "-"
        out[f"{checker}_seconds"] = f"{sum(run.seconds for _, run in done):.0f}"
        out[f"{checker}_sink_calls"] = str(sum(run.sink_calls for _, run in done))
        out[f"{checker}_proven"] = str(sum(run.proven_total for _, run in done))
        out[f"{checker}_unverified"] = str(sum(len(run.unverified) for _, run in done))
    harms = Counter(
        label.harm for f in everything if (label := labels.of(f)) and label.verdict == "real"
    )
    out["real_injection"] = str(harms["injection"])
    out["real_lost_record"] = str(harms["lost log record"])
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


def _header(title: str) -> list[str]:
    return [
        f"# {title}",
        "",
        f"Generated by `python scripts/impact.py` (typing-literalstring {__version__}; "
        + ", ".join(f"{n} {CHECKERS[n].version()}" for n in ("pyright", "mypy+plugin"))
        + "; Python target 3.12). Do not edit: the project list is "
        "`benchmarks/impact/projects.toml`, the labels `benchmarks/impact/labels/` and "
        "`benchmarks/impact/rules.toml`, the prose `benchmarks/impact/notes.md`.",
        "",
    ]


def render_impact(results: Sequence[ProjectResult], labels: Labels, seconds: float) -> str:
    values = figures(results, labels)
    built = [r for r in results if not r.failure]
    lines = _header("Impact: tightening str APIs to LiteralString on real projects")
    lines += [
        f"{values['projects']} projects, {values['built']} built and checked "
        f"({values['kloc']} KLOC, non-blank lines of the checked folders), "
        f"{values['failed']} not built and {values['not_run']} not run (listed with the "
        f"reason). Checker time summed over the projects: pyright {values['pyright_seconds']} s, "
        f"mypy {values['mypy_seconds']} s; this rendering took {seconds:.0f} s.",
        "",
        "Each project is its sdist from PyPI, checked from its root in a virtual environment "
        "holding its dependencies, by `typing-literalstring check` in the strict profile with "
        "each checker. The default profile's findings are the same run's less LS302: the "
        "profiles differ only in requiring a literal log message without formatting arguments. "
        "A sink call is *proven* when the checker typed its text LiteralString, *unverified* "
        "when a part of it is Any or its receiver is unknown; logging calls are counted by "
        "name (a call named like a logging method), and the checker's proof of them is not "
        "placed, so their sites less findings are *accepted* (literal or Any).",
        "",
        "## Projects",
        "",
        "| project | kind | why | KLOC | pyright default / strict | mypy default / strict "
        "| sink calls (pyright): proven, unverified | time pyright / mypy | unresolved imports "
        "pyright / mypy | measured at |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        p = r.project
        if r.failure:
            status = "**not run**" if r.failure.startswith("not run") else "**not built**"
            lines.append(f"| {p.requirement} | {p.kind} | {p.why} | - | {status}: "
                         f"{_cell(r.failure)} | | | | | |")  # fmt: skip
            continue
        cells: list[str] = []
        for checker, _ in CHECKERS_SHOWN:
            run = r.run(checker)
            cells.append(
                f"{len(run.default_findings())} / {len(run.findings)}" if run else
                "failed: " + _cell(r.failed_runs.get(checker, "not run"))
            )  # fmt: skip
        pyright = r.run("pyright")
        mypy = r.run("mypy")
        calls = (
            f"{pyright.sink_calls}: {pyright.proven_total}, {len(pyright.unverified)}"
            if pyright else "-"
        )  # fmt: skip
        times = " / ".join(f"{run.seconds:.0f} s" if run else "-" for run in (pyright, mypy))
        unresolved = " / ".join(str(run.unresolved) if run else "-" for run in (pyright, mypy))
        lines.append(
            f"| {p.requirement} | {p.kind} | {p.why} | {r.kloc:.1f} | {cells[0]} | {cells[1]} "
            f"| {calls} | {times} | {unresolved} | {r.tool or 'before 245e6c5'} |"
        )
    lines += ["", *_per_api_tables(built, labels), ""]
    lines += _totals(built, labels, values)
    lines += ["", *_real(built, labels)]
    lines += ["", *_tools(built), ""]
    lines += _rules_section(built, labels)
    lines += ["", *_every_finding(built, labels)]
    lines += ["", *_stale(built, labels)]
    if NOTES.is_file():
        lines += ["", fill(NOTES.read_text(encoding="utf-8").rstrip(), values)]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _per_api_tables(results: Sequence[ProjectResult], labels: Labels) -> list[str]:
    lines = [
        "## Per sink API",
        "",
        "Each call site once per checker. *findings* are split by their labels: real (an "
        "injection, or a lost log record), benign, the tool's mistake, unlabelled. LS302 rows "
        "are the strict profile's alone. Rules LS001 and LS9xx are not a sink's: they are listed "
        "under the API their finding names.",
        "",
    ]
    for checker, shown in CHECKERS_SHOWN:
        lines += [
            f"### {shown}",
            "",
            "| API | rule | call sites | proven literal | findings | real | benign | mistake "
            "| unlabelled | unverified (Any) | projects with findings |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for e in rows(results, labels, checker):
            proven = "accepted " + str(e.sites - e.findings) if e.logging else str(e.proven)
            lines.append(
                f"| {e.api} | {e.rule or '-'} | {e.sites} | {proven} | {e.findings} | "
                + " | ".join(str(e.verdicts[v]) for v in (*VERDICTS, "unlabelled"))
                + f" | {e.unverified if not e.logging else '-'} | {len(e.projects)} |"
            )
        lines.append("")
    return lines


def _totals(results: Sequence[ProjectResult], labels: Labels, v: dict[str, str]) -> list[str]:
    lines = [
        "## Totals",
        "",
        f"{v['findings']} distinct findings (a place and rule once, whichever checker "
        f"reported it) in {v['kloc']} KLOC: {v['all_real']} real ({v['all_real_pct']}; "
        f"{v['real_injection']} injections, {v['real_lost_record']} lost log records), "
        f"{v['all_benign']} benign ({v['all_benign_pct']}), {v['all_mistake']} the tool's "
        f"mistakes ({v['all_mistake_pct']}), {v['all_unlabelled']} unlabelled "
        f"({v['all_unlabelled_pct']}). Of them {v['findings_default']} in the default profile "
        f"and {v['findings_ls302']} LS302 (strict only).",
        "",
        "| verdict by rule | " + " | ".join((*VERDICTS, "unlabelled")) + " |",
        "|---|---|---|---|---|",
    ]
    everything = [f for r in results for f in r.distinct()]
    for rule in sorted({f.rule for f in everything}):
        row = Counter(_verdict(labels.of(f)) for f in everything if f.rule == rule)
        lines.append(f"| {rule} | " + " | ".join(str(row[x]) for x in (*VERDICTS, "unlabelled"))
                     + " |")  # fmt: skip
    idioms = Counter(
        label.idiom for f in everything if (label := labels.of(f)) and label.verdict == "benign"
    )
    lines += ["", "Benign idioms, by frequency, with the change each needs:", "",
              "| idiom | findings | the change |", "|---|---|---|"]  # fmt: skip
    lines += [
        f"| {idiom} | {n} | {labels.idioms.get(idiom, '(not written yet)')} |"
        for idiom, n in idioms.most_common()
    ]
    return lines


def _real(results: Sequence[ProjectResult], labels: Labels) -> list[str]:
    lines = [
        "## The real findings",
        "",
        "Each read at its call site; *harm* says what happens: an injection (of SQL, a shell "
        "command or markup) or a lost log record.",
        "",
        "| project | file:line | rule | harm | why |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        for f in r.distinct():
            label = labels.of(f)
            if label is not None and label.verdict == "real":
                lines.append(f"| {f.project} | `{f.file}:{f.number}` | {f.rule} | {label.harm} "
                             f"| {_cell(label.why)} |")  # fmt: skip
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


def _rules_section(results: Sequence[ProjectResult], labels: Labels) -> list[str]:
    everything = [f for r in results for f in r.distinct()]
    lines = [
        "## Labelling rules",
        "",
        "A finding without a label read at its site is labelled by the first rule it matches. "
        "Each rule's sample was read by hand at its call site and agreed with the rule.",
        "",
    ]
    for rule in labels.rules:
        matched = [f for f in everything if labels.read.get(f.key) is None and rule.matches(f)
                   and labels.of(f) == rule.label()]  # fmt: skip
        lines += [
            f"- **{rule.id}** ({', '.join(rule.rules)}"
            + (f"; not {', '.join(rule.except_projects)}" if rule.except_projects else "")
            + (f"; only {', '.join(rule.projects)}" if rule.projects else "")
            + (f"; statement matching `{rule.statement}`" if rule.statement else "")
            + (f"; file matching `{rule.file}`" if rule.file else "")
            + (f"; API matching `{rule.api}`" if rule.api else "")
            + f"): {rule.verdict}"
            + (f" ({rule.idiom})" if rule.idiom else "")
            + (f", {rule.harm}" if rule.harm else "")
            + f". {rule.why} Labels {len(matched)} findings; {len(rule.sampled)} read by hand "
            + f"({_sampled_among(rule.sampled, matched)} of them among those findings): "
            + (", ".join(f"`{s}`" for s in rule.sampled) or "none")
            + "."
        ]
    return lines


def _sampled_among(sampled: Sequence[str], matched: Sequence[Found]) -> int:
    """How many of a rule's hand-read places are findings it labels (a place is
    ``project file:line``)."""
    places = {f"{f.project} {f.file}:{f.number}" for f in matched}
    return sum(1 for place in sampled if place in places)


def _every_finding(results: Sequence[ProjectResult], labels: Labels) -> list[str]:
    lines = [
        "## Every finding read at its site, and every unlabelled one",
        "",
        "The findings labelled by a rule are counted above, per rule; "
        "`--findings FILE` writes all of them.",
        "",
        "| project | file:line | rule | checkers | verdict | why |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        by: dict[tuple[str, str, int, str, str], list[str]] = {}
        for run in r.runs:
            for f in run.findings:
                by.setdefault(f.key, []).append(run.checker)
        for f in r.distinct():
            label = labels.of(f)
            if label is not None and label.rule:
                continue
            if label is None:
                verdict, why = "**unlabelled**", f"`{_cell(f.line)}`"
            else:
                verdict = label.verdict + (f" ({label.idiom})" if label.idiom else "") + (
                    f" ({label.harm})" if label.harm else "")  # fmt: skip
                why = _cell(label.why)
            lines.append(f"| {f.project} | `{f.file}:{f.number}` | {f.rule} | "
                         f"{', '.join(sorted(set(by[f.key])))} | {verdict} | {why} |")  # fmt: skip
    return lines


def stale(results: Sequence[ProjectResult], labels: Labels) -> list[tuple[str, str, int, str, str]]:
    """Labels read at a site of a checked project that no finding has any more."""
    checked = {r.project.name for r in results if r.runs}
    found = {f.key for r in results for f in r.distinct()}
    return sorted(k for k in labels.read if k[0] in checked and k not in found)


def _stale(results: Sequence[ProjectResult], labels: Labels) -> list[str]:
    keys = stale(results, labels)
    lines = ["## Labels that matched no finding", ""]
    if not keys:
        return [*lines, "None."]
    return [*lines, *(f"- {p} `{f}:{n}` {rule} `{_cell(text)}`" for p, f, n, rule, text in keys)]


# -- the typeshed report ------------------------------------------------------------------------
@dataclass
class Verdict:
    api: str
    rule: str
    sites: int
    proven: int
    unverified: int
    verdicts: Counter[str]
    idioms: Counter[str]
    projects: int
    logging: bool

    @property
    def cost(self) -> int:
        """Findings a maintainer would change that are no bug: the benign ones.  The tool's
        mistakes are not counted: they come from our own heuristics (wrappers, names), which a
        typeshed change does not have; they are shown beside."""
        return self.verdicts["benign"]

    def recommendation(self) -> str:
        if self.verdicts["unlabelled"]:
            return "undecided: unlabelled findings"
        if self.sites < MIN_CALLS:
            return f"not yet: {self.sites} calls measured, fewer than {MIN_CALLS}"
        rate = self.cost / self.sites
        if rate <= NOW:
            return "tighten now"
        if rate <= OVERLOAD:
            return "tighten behind an overload with a `str` fallback"
        return "not yet: too many benign idioms break"


def verdicts(results: Sequence[ProjectResult], labels: Labels) -> list[Verdict]:
    """Per API and rule, over both checkers: the larger count of call sites of the two, the
    distinct findings of either."""
    tables = {checker: rows(results, labels, checker) for checker, _ in CHECKERS_SHOWN}
    keys = sorted({(e.rule, e.api) for table in tables.values() for e in table})
    everything = [f for r in results for f in r.distinct()]
    out: list[Verdict] = []
    for rule, api in keys:
        if not rule or rule.startswith("LS0") or rule.startswith("LS9"):
            continue
        entries = [e for table in tables.values() for e in table if (e.rule, e.api) == (rule, api)]
        found: list[Found] = [f for f in everything if (f.rule, api_of(f.api)) == (rule, api)]
        labelled = [labels.of(f) for f in found]
        out.append(
            Verdict(
                api,
                rule,
                max(e.sites for e in entries),
                max(e.proven for e in entries),
                max(e.unverified for e in entries),
                Counter(_verdict(x) for x in labelled),
                Counter(x.idiom for x in labelled if x and x.verdict == "benign"),
                len({f.project for f in found}),
                any(e.logging for e in entries),
            )
        )
    return out


def render_typeshed(results: Sequence[ProjectResult], labels: Labels) -> str:
    built = [r for r in results if not r.failure]
    values = figures(results, labels)
    lines = _header("Tightening typeshed's str sinks to LiteralString: an experience report")
    lines += [
        f"Measured on {values['built']} projects ({values['kloc']} KLOC) of "
        f"{values['projects']} chosen (IMPACT.md lists them, why each was chosen, and the ones "
        "that did not build). Every figure here is computed from IMPACT.md's tables by the same "
        "script.",
        "",
        "How the recommendation is derived, per API and rule: the calls measured are the larger "
        "count of the two checkers' (pyright; mypy with our plugin); the *cost* is the benign "
        "findings (no bug, but the code must change) of either checker, each place once; the "
        "tool's mistakes are shown but not counted, for they come from typing-literalstring's "
        "own heuristics (its wrapper detection, sinks matched by name), which a typeshed change "
        "would not have. Calls are the ones the tool judged: for subprocess only the calls with "
        "`shell=True` (or a shell flag it cannot prove False); they are matched by the callee's "
        "name, unless the callee is the project's own definition (peewee's `SQL`, judged by "
        "what it does), and `sqlite3 Connection/Cursor.execute` holds every DB-API cursor's "
        "`execute` "
        "the checker types (sqlite3's, psycopg's, Django's) until the tool names them apart; "
        "logging's methods count as one API, their calls counted by name. Figures from "
        "IMPACT.md's results, measured over one session while the analysis changed (its "
        f"project table names the commit of each). Fewer than {MIN_CALLS} calls: **not yet** "
        "(too little evidence). A cost of at "
        f"most {NOW:.0%} of the calls: **tighten now**. At most {OVERLOAD:.0%}: **tighten "
        "behind an overload with a `str` fallback**, the tightened signature only where the "
        "call's other arguments show the risk (as `shell=True` does for subprocess, and "
        "formatting arguments do for logging). More: **not yet**. Real findings are reported "
        "beside: they are what the change buys.",
        "",
        "| API | rule | calls | proven literal | unverified (Any) | real | benign | mistake | "
        "unlabelled | projects with findings | recommendation |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    found = verdicts(built, labels)
    for v in found:
        proven = "accepted " + str(v.sites - sum(v.verdicts.values())) if v.logging else str(
            v.proven)  # fmt: skip
        lines.append(
            f"| {v.api} | {v.rule} | {v.sites} | {proven} | "
            f"{'-' if v.logging else v.unverified} | "
            + " | ".join(str(v.verdicts[x]) for x in (*VERDICTS, "unlabelled"))
            + f" | {v.projects} | {v.recommendation()} |"
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
