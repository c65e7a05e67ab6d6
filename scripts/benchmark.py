"""Benchmarks: detection accuracy against the security linters, and what the stubs cost.

    python scripts/benchmark.py              # both benchmarks; rewrites BENCHMARKS.md
    python scripts/benchmark.py --detection  # only the detection table (rewrites --out whole)
    python scripts/benchmark.py --check-cost --reps 3   # only `check` against a plain run;
                                                        # replaces that section of --out
    python scripts/benchmark.py --plugin-real-code   # only the mypy plugin on real code
    python scripts/benchmark.py --fixes      # only how each false alarm is fixed
    python scripts/benchmark.py --cases 3 --out /tmp/b.md   # a quick run on a few cases

Detection: every case of benchmarks/corpus/ (one labelled program a file) is checked by
`typing-literalstring check` with each enforcing checker, by bandit (its SQL and shell tests) and
by ruff (flake8-bandit's SQL and shell rules, and the logging-format rules).  A tool detects a
case when it reports a finding of the case's family on the case's sink statement (the line its
`# sink-line:` header names, or another line of the same statement).

Cost: the time a checker takes with our overlay against its stock typeshed on real projects
(sdists from PyPI), runs alternating, as the median of the per-run ratios; the time to build an
overlay, cold and cached; and the wall time of the regression-suite matrix.  Ratios are measured
in one run; seconds are only context for this machine.
"""

from __future__ import annotations

import argparse
import ast
import compileall
import functools
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from copy import copy as shallow_copy
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, Mapping, Sequence, cast

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from scripts.false_alarm_fixes import HEADING as FIXES_HEADING  # noqa: E402
from scripts.false_alarm_fixes import section as false_alarm_fixes  # noqa: E402
from scripts.plugin_real_code import HEADING as PLUGIN_REAL_CODE_HEADING  # noqa: E402
from scripts.plugin_real_code import fetch_sdist  # noqa: E402
from scripts.plugin_real_code import run as plugin_real_code  # noqa: E402
from scripts.regression.matrix import TARGETS, run_checker  # noqa: E402
from typing_literalstring.analysis.statements import all_statements  # noqa: E402
from typing_literalstring.checkers import CHECKERS, Checker, enforcing  # noqa: E402
from typing_literalstring.commands.check import run_check  # noqa: E402
from typing_literalstring.core.project import find_root, search_paths  # noqa: E402
from typing_literalstring.core.project_files import python_files  # noqa: E402
from typing_literalstring.report.chains import chain_places  # noqa: E402
from typing_literalstring.report.texts import Texts  # noqa: E402
from typing_literalstring.specs.cache import cached_overlay  # noqa: E402
from typing_literalstring.specs.overlay import build_overlay  # noqa: E402

CORPUS = REPO / "benchmarks" / "corpus"
EXPLANATIONS = REPO / "benchmarks" / "explanations.json"
OUT = REPO / "BENCHMARKS.md"
CVE_HEADING = "## Published CVEs (held out)"  # scripts/cve_benchmark.py writes it
# The sections other scripts write (the CVEs', and scripts/server_benchmark.py's), kept as they
# are when this script rewrites the file.
KEPT_HEADINGS = (CVE_HEADING, "## Language server")
FAMILIES = ("sql", "shell", "logging", "sql-thirdparty", "template", "markup")
# A case family whose findings are another family's: third-party SQL drivers are SQL.
FINDING_FAMILY = {"sql-thirdparty": "sql"}
ENFORCING = ("pyright", "basedpyright", "ty", "zuban", "pyrefly", "mypy")
SCORING = (
    "A tool detects a case when it reports a finding of the case's family on the case's sink "
    "statement (the line its `# sink-line:` header names, or another line of that statement). "
    "bandit's B608 and ruff's S608 report the line that builds an SQL string, which is often "
    'not the sink\'s (`q = f"..."`, then `cur.execute(q)`): such a report is not counted.'
)
PYTHON = "3.12"  # the target every checker is run for
# Real code that is not ours and uses sqlite3, subprocess and logging: sdists from PyPI.
PROJECTS = {
    "sqlite-utils==4.2.1": "sqlite_utils",
    "datasette==0.65.5": "datasette",
    "invoke==3.0.3": "invoke",
}
COST_CHECKERS = ("pyright", "mypy", "ty")
# Their rules nearest to each family.  For templates they have no rule on a template's source:
# B701/S701 flag Jinja2 without autoescaping and B702/S702 any Mako template, so a hit there
# is not a detection of template injection, but it is what a user of these tools would see.
BANDIT_TESTS = {
    "B608": "sql",
    **dict.fromkeys(("B602", "B604", "B605", "B609"), "shell"),
    **dict.fromkeys(("B701", "B702"), "template"),
    **dict.fromkeys(("B308", "B703", "B704"), "markup"),
}
RUFF_RULES = {
    "S608": "sql",
    **dict.fromkeys(("S602", "S604", "S605", "S609"), "shell"),
    **dict.fromkeys(("G001", "G002", "G003", "G004"), "logging"),
    **dict.fromkeys(("S701", "S702"), "template"),
    **dict.fromkeys(("S308", "S704"), "markup"),
}
OUR_FAMILIES = {
    "SQL": "sql",
    "shell": "shell",
    "logging": "logging",
    "template": "template",
    "markup": "markup",
}
# An LS001 finding (a non-literal string reaching a LiteralString the case declares itself)
# flags the case whatever its family.
ANY_FAMILY = "any"


@dataclass(frozen=True, eq=False)
class Case:
    path: Path
    label: str  # "vulnerable" or "safe"
    family: str
    sink_line: int
    why: str

    @property
    def name(self) -> str:
        return f"{self.family}/{self.path.name}"

    @functools.cached_property
    def sink_span(self) -> tuple[int, int]:
        """The lines of the innermost statement holding the sink line: a finding counts for the
        case only there (a multi-line call may be reported on any of its lines)."""
        tree = ast.parse(self.path.read_text(encoding="utf-8"))
        best: tuple[int, int] | None = None
        for node in all_statements(tree):
            first, last = node.lineno, node.end_lineno or node.lineno
            body: object = getattr(node, "body", None)
            if isinstance(body, list) and body:
                block = cast("list[ast.stmt]", body)
                if block[0].lineno > first:
                    last = block[0].lineno - 1  # a compound statement: its header only
            if first <= self.sink_line <= last and (best is None or first >= best[0]):
                best = (first, last)
        return best or (self.sink_line, self.sink_line)


def load_cases(corpus: Path = CORPUS) -> list[Case]:
    cases: list[Case] = []
    for path in sorted(corpus.glob("*/*.py")):
        header: dict[str, str] = {}
        for line in path.read_text(encoding="utf-8").splitlines()[:4]:
            key, _, value = line.lstrip("# ").partition(": ")
            header[key] = value.strip()
        if (
            header.get("label") not in ("vulnerable", "safe")
            or header.get("family") not in FAMILIES
        ):
            raise SystemExit(f"{path}: the header needs `# label:` and `# family:` lines")
        cases.append(
            Case(path, header["label"], header["family"], int(header["sink-line"]), header["why"])
        )
    return cases


@dataclass
class ToolRun:
    tool: str
    version: str
    seconds: float
    # case file -> (family, line) of each finding
    flagged: dict[str, set[tuple[str, int]]] = field(default_factory=lambda: {})

    def flags(self, copy: str, case: Case) -> bool:
        """Whether the tool flagged the case (``copy``: the file it actually read): a finding of
        the case's family (or of any family, for our LS001) on its sink statement, the line
        each case names; a finding elsewhere in the file is not a detection of that sink."""
        family = FINDING_FAMILY.get(case.family, case.family)
        first, last = case.sink_span
        return any(
            found in (family, ANY_FAMILY) and first <= line <= last
            for found, line in self.flagged.get(copy, set())
        )


def _copy_cases(cases: Sequence[Case], into: Path) -> dict[str, Case]:
    """The chosen cases in a folder of their own (so a tool sees exactly these files)."""
    copies: dict[str, Case] = {}
    for case in cases:
        target = into / case.family / case.path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(case.path.read_bytes())
        copies[str(target.resolve())] = case
    return copies


def run_ours(
    checker: Checker, folder: Path, cache_dir: Path, *, report_any: bool = False
) -> ToolRun:
    started = time.perf_counter()
    result = run_check(
        checker,
        [folder],
        python_version=PYTHON,
        cache_dir=cache_dir,
        cwd=folder,
        report_any=report_any,
    )
    label = f"typing-literalstring + {checker.name}" + (" --report-any" if report_any else "")
    run = ToolRun(label, checker.version(), 0.0)
    run.seconds = time.perf_counter() - started
    # A finding at a wrapper's callers (one finding per flow) flags the sink inside the
    # wrapper too: its chain's places are where the text goes (report/chains.py), as the CVE
    # benchmark counts them.
    places = chain_places(result, Texts())
    for finding in result.findings:
        family = OUR_FAMILIES.get(finding.rule.family, ANY_FAMILY)
        spots = [(finding.path, finding.line)]
        spots += [(p.path, p.node.lineno) for p in places.get(finding, [])]
        for path, line in spots:
            run.flagged.setdefault(str(Path(path).resolve()), set()).add((family, line))
    return run


def _tool(name: str) -> str:
    local = Path(sys.executable).parent / name
    return str(local) if local.is_file() else name


def _version(command: list[str]) -> str:
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    words = (proc.stdout or proc.stderr).split()
    return next((w for w in words if w[:1].isdigit()), "unknown")


def run_bandit(folder: Path) -> ToolRun:
    started = time.perf_counter()
    proc = subprocess.run(
        [_tool("bandit"), "-q", "-r", "-f", "json", "-t", ",".join(BANDIT_TESTS), str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    run = ToolRun("bandit", _version([_tool("bandit"), "--version"]), time.perf_counter() - started)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"bandit failed (exit {proc.returncode}): {proc.stderr[-2000:]}")
    for item in json.loads(proc.stdout)["results"]:
        key = str(Path(item["filename"]).resolve())
        run.flagged.setdefault(key, set()).add((BANDIT_TESTS[item["test_id"]], item["line_number"]))
    return run


def run_ruff(folder: Path) -> ToolRun:
    started = time.perf_counter()
    proc = subprocess.run(
        [
            _tool("ruff"),
            "check",
            "--isolated",
            "--no-cache",
            "--output-format=json",
            "--select",
            ",".join(RUFF_RULES),
            str(folder),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    run = ToolRun("ruff", _version([_tool("ruff"), "--version"]), time.perf_counter() - started)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"ruff failed (exit {proc.returncode}): {proc.stderr[-2000:]}")
    for item in json.loads(proc.stdout):
        key = str(Path(item["filename"]).resolve())
        line = item["location"]["row"]
        run.flagged.setdefault(key, set()).add((RUFF_RULES[item["code"]], line))
    return run


@dataclass(frozen=True)
class Score:
    tp: int
    fn: int
    tn: int
    fp: int

    @property
    def tpr(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def fpr(self) -> float:
        return self.fp / (self.fp + self.tn) if self.fp + self.tn else 0.0


def score(run: ToolRun, cases: dict[str, Case], family: str) -> Score:
    tp = fn = tn = fp = 0
    for copy, case in cases.items():
        if case.family != family:
            continue
        hit = run.flags(copy, case)
        if case.label == "vulnerable":
            tp, fn = tp + hit, fn + (not hit)
        else:
            fp, tn = fp + hit, tn + (not hit)
    return Score(tp, fn, tn, fp)


def detection(cases: Sequence[Case], tools: Sequence[str]) -> tuple[list[ToolRun], dict[str, Case]]:
    work = Path(tempfile.mkdtemp(prefix="tls-bench-"))
    copies = _copy_cases(cases, work / "corpus")
    runs: list[ToolRun] = []
    for tool in tools:
        if tool == "bandit":
            runs.append(run_bandit(work / "corpus"))
        elif tool == "ruff":
            runs.append(run_ruff(work / "corpus"))
        elif CHECKERS[tool].is_installed():
            runs.append(run_ours(CHECKERS[tool], work / "corpus", work / "cache"))
            # The same checker asked about values of type Any too (check --report-any).
            runs.append(run_ours(CHECKERS[tool], work / "corpus", work / "cache", report_any=True))
        else:
            print(f"skipped {tool}: not installed", file=sys.stderr)
    return runs, copies


def _flagged_safe(runs: Sequence[ToolRun], cases: dict[str, Case]) -> dict[str, set[str]]:
    """Checker -> the safe cases `check` flags with it (without --report-any)."""
    flagged: dict[str, set[str]] = {}
    for run in runs:
        if run.tool.startswith("typing-literalstring + ") and "--report-any" not in run.tool:
            name = run.tool.split(" + ", 1)[1]
            flagged[name] = {
                case.name
                for copy, case in cases.items()
                if case.label == "safe" and run.flags(copy, case)
            }
    return flagged


def detection_table(runs: Sequence[ToolRun], cases: dict[str, Case]) -> list[str]:
    lines = [
        "| tool | version | family | TP | FN | TN | FP | TPR | FPR | TPR - FPR |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        for family in FAMILIES:
            s = score(run, cases, family)
            lines.append(
                f"| {run.tool} | {run.version} | {family} | {s.tp} | {s.fn} | {s.tn} | {s.fp} "
                f"| {s.tpr:.2f} | {s.fpr:.2f} | {s.tpr - s.fpr:+.2f} |"
            )
    lines += ["", "| tool | wall time on the corpus |", "|---|---|"]
    lines += [f"| {run.tool} | {run.seconds:.1f} s |" for run in runs]
    return lines


def mistakes(runs: Sequence[ToolRun], cases: dict[str, Case]) -> list[str]:
    """Every miss and false alarm of our tool, with its recorded explanation."""
    explained: dict[str, str] = (
        json.loads(EXPLANATIONS.read_text(encoding="utf-8")) if EXPLANATIONS.is_file() else {}
    )
    lines: list[str] = []
    for run in runs:
        if not run.tool.startswith("typing-literalstring"):
            continue
        for copy, case in sorted(cases.items(), key=lambda item: item[1].name):
            hit = run.flags(copy, case)
            kind = "miss" if case.label == "vulnerable" and not hit else None
            kind = "false alarm" if case.label == "safe" and hit else kind
            if kind is None:
                continue
            reason = explained.get(case.name, "UNEXPLAINED")
            lines.append(f"| {run.tool.split(' + ')[1]} | {kind} | `{case.name}` | {reason} |")
    if lines:
        lines[:0] = ["| checker | kind | case | reason |", "|---|---|---|---|"]
    return lines


# ---------------------------------------------------------------------------- cost


def fetch_projects(into: Path, projects: Mapping[str, str] = PROJECTS) -> dict[str, Path]:
    """Download and unpack each project's sdist; returns name -> its package folder."""
    return {
        requirement: fetch_sdist(requirement, into) / package
        for requirement, package in projects.items()
    }


def _timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def _run_in(
    checker: Checker,
    files: list[Path],
    overlay: Path | None,
    workdir: Path,
    fresh: bool,
    rep: int,
    *,
    python_version: str | None = PYTHON,
    extra_paths: Sequence[Path] = (),
) -> None:
    """One run of ``checker``; ``fresh``: in a folder of its own (a cold checker cache)."""
    checker.run(
        files,
        python_version=python_version,
        overlay=overlay,
        workdir=workdir / str(rep) if fresh else workdir,
        extra_paths=list(extra_paths),
    )


def _as_typed(checker: Checker) -> Checker:
    """``checker`` started by the command a user types (pyright's PyPI script), where `check`
    may start it a shorter way (``Checker.launcher``): the plain run is the user's."""
    typed = shallow_copy(checker)
    vars(typed)["launcher"] = typed.executable  # this one instance's launcher
    return typed


@dataclass
class CheckStats:
    """What `check --verbose` says of each run: its checker processes and what they cost."""

    runs: list[int] = field(default_factory=lambda: [])
    checker_seconds: list[float] = field(default_factory=lambda: [])
    own_mb: list[int] = field(default_factory=lambda: [])
    checker_mb: list[int] = field(default_factory=lambda: [])


_VERBOSE = re.compile(
    r"typing-literalstring: (\d+) checker runs?\b.*?; ([\d.]+) s in the checker; peak memory "
    r"(\d+) MB ours, (\d+) MB the checker's"
)


def _check_command(command: list[str], cwd: Path, stats: CheckStats, rep: int) -> None:
    """One run of the `typing-literalstring check --verbose` command, as a user starts it."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stderr}")
    said = _VERBOSE.search(done.stderr)
    if said is None:
        raise SystemExit(f"{' '.join(command)} did not say its checker runs:\n{done.stderr}")
    if rep >= 0:  # not the warm-up
        stats.runs.append(int(said[1]))
        stats.checker_seconds.append(float(said[2]))
        stats.own_mb.append(int(said[3]))
        stats.checker_mb.append(int(said[4]))


def _ratio_row(
    tool: str, requirement: str, files: Sequence[Path], base: list[float], other: list[float]
) -> tuple[str, list[float]]:
    """A table row (medians of both, median of the per-run ratios) and those ratios."""
    ratios = [o / b for o, b in zip(other, base)]
    row = (
        f"| {tool} | {requirement} | {len(files)} | {statistics.median(base):.2f} | "
        f"{statistics.median(other):.2f} | {statistics.median(ratios):.2f} |"
    )
    return row, ratios


def _alternating(
    reps: int, first: Callable[[int], object], second: Callable[[int], object]
) -> tuple[list[float], list[float]]:
    """Seconds of ``reps`` runs of each action (given the run's number), the order swapped every
    run so that neither profits from what the other left warm."""
    times: tuple[list[float], list[float]] = ([], [])
    for rep in range(reps):
        for which in (0, 1) if rep % 2 == 0 else (1, 0):
            action = first if which == 0 else second
            times[which].append(_timed(partial(action, rep)))
    return times


def cost(reps: int) -> list[str]:
    work = Path(tempfile.mkdtemp(prefix="tls-cost-"))
    projects = fetch_projects(work / "sdists")
    lines = [
        "| checker | project | files | stock (median s) | overlay (median s) | ratio (median) |",
        "|---|---|---|---|---|---|",
    ]
    summary: list[str] = []
    for name in COST_CHECKERS:
        checker = CHECKERS[name]
        if not checker.is_installed():
            continue
        overlay = cached_overlay(checker, "default", work / "cache").root
        ratios_all: list[float] = []
        for requirement, folder in projects.items():
            files = sorted(folder.rglob("*.py"))
            runs = work / "runs" / f"{name}-{folder.name}"
            stock_run = partial(_run_in, checker, files, None, runs / "stock", True)
            tightened_run = partial(_run_in, checker, files, overlay, runs / "tightened", True)
            stock_run(-1)  # warm-up runs, not timed (disk cache, JIT)
            tightened_run(-1)
            stock, tightened = _alternating(reps, stock_run, tightened_run)
            row, ratios = _ratio_row(
                f"{name} {checker.version()}", requirement, files, stock, tightened
            )
            ratios_all += ratios
            lines.append(row)
        summary.append(f"| {name} | {statistics.median(ratios_all):.2f} |")
    lines += ["", "| checker | median ratio, all projects |", "|---|---|", *summary]

    # Through the cache, as `check` gets them: cold into an empty cache, then cached; and the
    # builder alone.  Three medians of separate runs: the builder's is not a part of the cold
    # one (noise can put it above), so the table does not say "of which".
    lines += ["", "| pyright's overlay | median s of 5 |", "|---|---|"]
    pyright = CHECKERS["pyright"]
    cold: list[float] = []
    build: list[float] = []
    for i in range(5):  # alternating, so that neither profits from the other's warm disk
        cold.append(_timed(partial(cached_overlay, pyright, "default", work / f"c{i}")))
        build.append(_timed(partial(build_overlay, pyright.typeshed_dir(), work / "b" / str(i))))
    warm = [_timed(partial(cached_overlay, pyright, "default", work / "c0")) for _ in range(5)]
    lines.append(f"| as `check` gets it, cold: empty cache | {statistics.median(cold):.3f} |")
    lines.append(f"| as `check` gets it, cached | {statistics.median(warm):.3f} |")
    lines.append(f"| the builder alone, no cache | {statistics.median(build):.3f} |")

    if CHECKERS["mypy+plugin"].is_installed():
        lines += ["", *plugin_cost(projects, reps, work / "plugin")]

    started = time.perf_counter()
    ran = [n for n in CHECKERS if CHECKERS[n].is_installed()]
    for name in ran:
        run_checker(CHECKERS[name], TARGETS)
    lines += [
        "",
        f"Regression-suite matrix ({', '.join(ran)}; every target each supports): "
        f"{time.perf_counter() - started:.0f} s wall time.",
    ]
    # Last: `--check-cost` replaces this subsection alone, down to the next heading.
    outside = fetch_projects(work / "sdists", CHECK_COST_PROJECTS)
    lines += ["", *check_cost(outside, reps, work / "check")]
    return lines


CHECK_COST_HEADING = "### `check` against one plain run of its checker"
CHECK_COST_CHECKERS = ("pyright", "basedpyright", "mypy", "ty", "zuban", "pyrefly")
# Projects outside benchmarks/impact/projects.toml (issue 42 asks for the cost on code the tool
# was not tuned on): an sqlite3 task queue, an sqlite3 comment server, a migrations tool with
# its own SQL wrappers.
CHECK_COST_PROJECTS = {
    "huey==2.5.3": "huey",
    "isso==0.13.0": "isso",
    "yoyo-migrations==8.2.0": "yoyo",
}
# Issue 42's goal for pyright (and basedpyright): the median wall time of `check` at most 1.15
# times one plain warm run on the same folders, in one checker run.  Issue 45's for mypy: at
# most a plain warm run plus 0.5 s.  The others: our own time at most 0.5 s per 10 KLOC (their
# runs are so short that our start-up dominates any ratio).  Everywhere: our peak memory below
# the checker's.
GOAL_RATIO = 1.15
GOAL_MYPY_EXTRA = 0.5
GOAL_OWN_PER_10_KLOC = 0.5


def _goal_of(checker: str) -> str:
    if checker in ("pyright", "basedpyright"):
        return f"ratio at most {GOAL_RATIO:.2f}"
    if checker == "mypy":
        return f"plain + {GOAL_MYPY_EXTRA} s"
    return f"own time at most {GOAL_OWN_PER_10_KLOC} s per 10 KLOC"


def _time_met(checker: str, ratio: float, own_rate: float, extra: Sequence[float]) -> bool:
    """Whether a checker's time meets its goal (see GOAL_RATIO)."""
    if checker in ("pyright", "basedpyright"):
        return ratio <= GOAL_RATIO
    if checker == "mypy":
        return statistics.median(extra) <= GOAL_MYPY_EXTRA
    return own_rate <= GOAL_OWN_PER_10_KLOC


def _edited_file(files: Sequence[Path]) -> Path:
    """The file an edit goes to: the project's largest, where an edit costs most to redo."""
    return max(files, key=lambda f: (f.stat().st_size, str(f)))


def _after_an_edit(
    path: Path, original: bytes, action: Callable[[int], object], rep: int
) -> object:
    """``action`` after a comment is added at the end of ``path`` (each run its own)."""
    path.write_bytes(original + f"\n# edited before run {rep}\n".encode())
    return action(rep)


def _kloc(files: Sequence[Path]) -> float:
    return sum(len(f.read_bytes().splitlines()) for f in files) / 1000


def check_cost(
    projects: dict[str, Path], reps: int, work: Path, checkers: Sequence[str] = CHECK_COST_CHECKERS
) -> list[str]:
    """What `check` costs against one plain warm run of the checker it runs, on the same files.

    `check` is timed as a user runs it: the `typing-literalstring check --verbose` command, our
    start-up included; its --verbose line says how many checker processes it started and how
    long they took, so the tool's own time (start-up, parsing, overlay, classification) is the
    rest.  The plain run is the same checker, same files and settings, without our stubs (for
    mypy: with our plugin, as `check` runs it), its cache kept from run to run as a user's is.
    Both are warmed once first.
    """
    lines = [
        CHECK_COST_HEADING,
        "",
        f"`typing-literalstring check --verbose --checker NAME PACKAGE` from the sdist's root "
        f"against one plain warm run of the checker; {reps} runs of each, alternating, after "
        "one warm-up of each; overlay cache warm. The plain run is the checker's command as a "
        "user types it (for pyright and basedpyright, their PyPI script, which starts node; "
        "`check` starts that node itself: docs/checker-facts.md). *Own* is the check's wall "
        "time less the time "
        "its checker processes took: our start-up, parsing, overlay and classification. Our "
        "package is byte-compiled first, as pip leaves an installed one. A check of an unchanged "
        "project takes the probed copies its last check kept (analysis/probe_cache.py); the last "
        "column adds a comment to the project's largest file before each run of either, so the "
        "copies are made anew (the goal is judged on the unchanged project, as the issues ask).",
        "",
        "| checker | project | KLOC | plain run (median s) | check (median s) | ratio (median) "
        "| checker runs | own (median s) | own per 10 KLOC (s) | peak MB: ours / checker's "
        "| one file edited: plain / check = ratio (median s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    summary: list[str] = []
    cache = work / "cache"
    # As an installed wheel starts: pip byte-compiles a package when it installs it, where an
    # editable install under PYTHONDONTWRITEBYTECODE=1 compiles our 12 KLOC on every start.
    compileall.compile_dir(str(REPO / "typing_literalstring"), quiet=1)
    for name in checkers:
        checker = CHECKERS[name]
        if not checker.is_installed():
            continue
        runs_as = enforcing(checker)
        ratios_all: list[float] = []
        extra_all: list[float] = []
        own_all: list[float] = []
        runs_all: list[int] = []
        edited_all: list[float] = []
        edited_extra: list[float] = []
        memory_ok = True
        for requirement, folder in projects.items():
            root = find_root(folder)
            files = python_files([folder])
            kloc = _kloc(files)
            command = [
                *(sys.executable, "-m", "typing_literalstring", "check", "--verbose"),
                *("--checker", name, "--cache-dir", str(cache), str(folder)),
            ]
            stats = CheckStats()
            check = partial(_check_command, command, root, stats)
            plain_run = partial(
                _run_in,
                _as_typed(runs_as),
                files,
                None,
                work / "runs" / f"{name}-{folder.name}",
                False,  # one workdir: mypy's cache stays warm, as a user's does
                python_version=None,
                extra_paths=search_paths(root),
            )
            check(-1)  # warms the overlay cache and the checker's own
            plain_run(-1)
            plain, checked = _alternating(reps, plain_run, check)
            # After an edit: the kept probed copies (analysis/probe_cache.py) are made anew,
            # and the checker sees a changed file too.
            edited = _edited_file(files)
            original = edited.read_bytes()
            try:
                plain_edited, checked_edited = _alternating(
                    reps,
                    partial(_after_an_edit, edited, original, plain_run),
                    partial(
                        _after_an_edit,
                        edited,
                        original,
                        partial(_check_command, command, root, CheckStats()),
                    ),
                )
            finally:
                edited.write_bytes(original)
            ratios = [c / p for c, p in zip(checked, plain)]
            own = [c - s for c, s in zip(checked, stats.checker_seconds)]
            per_10_kloc = statistics.median(own) / max(kloc / 10, 1e-9)
            memory_ok &= max(stats.own_mb) < max(stats.checker_mb)
            edited_ratios = [c / p for c, p in zip(checked_edited, plain_edited)]
            lines.append(
                f"| {name} {checker.version()} | {requirement} | {kloc:.1f} "
                f"| {statistics.median(plain):.2f} | {statistics.median(checked):.2f} "
                f"| {statistics.median(ratios):.2f} | {max(stats.runs)} "
                f"| {statistics.median(own):.2f} | {per_10_kloc:.2f} "
                f"| {max(stats.own_mb)} / {max(stats.checker_mb)} "
                f"| {statistics.median(plain_edited):.2f} / {statistics.median(checked_edited):.2f}"
                f" = {statistics.median(edited_ratios):.2f} |"
            )
            edited_all += edited_ratios
            edited_extra += [c - p for c, p in zip(checked_edited, plain_edited)]
            ratios_all += ratios
            extra_all += [c - p for c, p in zip(checked, plain)]
            own_all += [o / max(kloc / 10, 1e-9) for o in own]
            runs_all += stats.runs
        ratio = statistics.median(ratios_all)
        own_rate = statistics.median(own_all)
        missed = [
            what
            for what, met in (
                ("time", _time_met(name, ratio, own_rate, extra_all)),
                ("one run", max(runs_all) == 1),
                ("memory", memory_ok),
            )
            if not met
        ]
        verdict = f"not met: {', '.join(missed)}" if missed else f"met ({_goal_of(name)})"
        summary.append(
            f"| {name} | {ratio:.2f} | {max(runs_all)} | {own_rate:.2f} "
            f"| {'yes' if memory_ok else 'no'} | {verdict} "
            f"| {statistics.median(edited_all):.2f} (+{statistics.median(edited_extra):.2f} s) |"
        )
    return [
        *lines,
        "",
        f"Goals: pyright and basedpyright, a median ratio of at most {GOAL_RATIO:.2f} (issue 42); "
        f"mypy, at most a plain warm run plus {GOAL_MYPY_EXTRA} s (issue 45); ty, zuban and "
        f"pyrefly, whose runs are so short that our start-up dominates any ratio, our own time "
        f"at most {GOAL_OWN_PER_10_KLOC} s per 10 KLOC; one checker run; our peak memory below "
        "the checker's.",
        "",
        "| checker | median ratio, all projects | most checker runs | own per 10 KLOC (median s) "
        "| our memory below the checker's | goal | one file edited: median ratio (extra) |",
        "|---|---|---|---|---|---|---|",
        *summary,
    ]


def _replace_section(text: str, heading: str, section: list[str]) -> str:
    """``text`` with the section under ``heading`` (to the next heading) replaced."""
    body = "\n".join(section) + "\n"
    start = text.find(heading)
    if start < 0:
        return text.rstrip("\n") + "\n\n" + body
    # To the next heading, or to the marker that opens another script's section (the line
    # before its heading: scripts/unseen.py's, scripts/server_benchmark.py's).
    ends = [text.find(m, start + len(heading)) for m in ("\n#", "\n<!-- scripts/")]
    end = min((e for e in ends if e >= 0), default=-1)
    return text[:start] + body + ("\n" + text[end + 1 :] if end >= 0 else "")


def plugin_cost(projects: dict[str, Path], reps: int, work: Path) -> list[str]:
    """mypy with our plugin against plain mypy (both with the overlay), cold and warm cache."""
    plain, plugin = CHECKERS["mypy"], CHECKERS["mypy+plugin"]
    overlay = cached_overlay(plain, "default", work / "cache").root
    lines = [
        "| mypy + our plugin | project | plain mypy (median s) | with plugin (median s) "
        "| ratio (median) |",
        "|---|---|---|---|---|",
    ]
    cold_all: list[float] = []
    warm_all: list[float] = []
    for requirement, folder in projects.items():
        files = sorted(folder.rglob("*.py"))
        for kind, ratios_all in (("cold", cold_all), ("warm", warm_all)):
            # Cold: a fresh cache every run; warm: the same cache, filled once before.
            fresh = kind == "cold"
            where = work / kind / folder.name
            plain_run = partial(_run_in, plain, files, overlay, where / "plain", fresh)
            plugin_run = partial(_run_in, plugin, files, overlay, where / "plugin", fresh)
            if not fresh:
                plain_run(-1)
                plugin_run(-1)
            plain_times, plugin_times = _alternating(reps, plain_run, plugin_run)
            times = {"plain": plain_times, "plugin": plugin_times}
            ratios = [b / a for a, b in zip(times["plain"], times["plugin"])]
            ratios_all += ratios
            lines.append(
                f"| {kind} | {requirement} | {statistics.median(times['plain']):.2f} | "
                f"{statistics.median(times['plugin']):.2f} | {statistics.median(ratios):.2f} |"
            )
    lines += [
        "",
        "| mypy + our plugin | median ratio, all projects |",
        "|---|---|",
        f"| cold cache | {statistics.median(cold_all):.2f} |",
        f"| warm cache | {statistics.median(warm_all):.2f} |",
        "",
        "What the plugin reports on real code: the section below.",
    ]
    return lines


def kept_sections(previous: str) -> str:
    """The sections of ``previous`` that other scripts write, to append to a regenerated file:
    each of KEPT_HEADINGS up to the next section, and each section between a script's begin
    and end markers (scripts/unseen.py, scripts/server_benchmark.py), markers included, so
    that script can replace its own again."""
    text = ""
    for heading in KEPT_HEADINGS:
        kept = previous.find(heading)
        if kept >= 0 and not _marked(previous, kept):
            end = previous.find("\n## ", kept + len(heading))
            text += "\n" + previous[kept : end if end >= 0 else len(previous)].rstrip("\n") + "\n"
    for block in re.finditer(r"<!-- (scripts/\S+): begin -->.*?<!-- \1: end -->", previous, re.S):
        text += "\n" + block.group(0) + "\n"
    return text


def _marked(text: str, at: int) -> bool:
    """Whether position ``at`` of ``text`` is inside a section between a script's markers."""
    begin = text.rfind(": begin -->", 0, at)
    return begin >= 0 and text.find(": end -->", begin) > at


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--detection", action="store_true", help="only the detection benchmark")
    parser.add_argument("--cost", action="store_true", help="only the cost benchmark")
    parser.add_argument(
        "--check-cost",
        action="store_true",
        help="only `check` against a plain run; replaces that section of --out",
    )
    parser.add_argument(
        "--fixes",
        action="store_true",
        help="only how each false alarm is fixed; replaces that section of --out",
    )
    parser.add_argument(
        "--plugin-real-code",
        action="store_true",
        help="only the mypy plugin on real code; replaces that section of --out",
    )
    parser.add_argument("--cases", type=int, help="only the first N cases of each family")
    parser.add_argument("--tools", nargs="*", default=[*ENFORCING, "bandit", "ruff"])
    parser.add_argument("--reps", type=int, default=5, help="cost: runs of each kind")
    parser.add_argument(
        "--checkers",
        nargs="*",
        default=list(CHECK_COST_CHECKERS),
        choices=CHECK_COST_CHECKERS,
        help="--check-cost: the checkers to time",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.check_cost:
        work = Path(tempfile.mkdtemp(prefix="tls-check-cost-"))
        projects = fetch_projects(work / "sdists", CHECK_COST_PROJECTS)
        section = check_cost(projects, args.reps, work, args.checkers)
        previous = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        args.out.write_text(_replace_section(previous, CHECK_COST_HEADING, section), "utf-8")
        print("\n".join(section))
        return 0
    if args.fixes:
        section = false_alarm_fixes(ENFORCING)
        previous = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        args.out.write_text(_replace_section(previous, FIXES_HEADING, section), "utf-8")
        print("\n".join(section))
        return 0
    if args.plugin_real_code:
        section = plugin_real_code(Path(tempfile.mkdtemp(prefix="tls-plugin-real-code-")))
        previous = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        args.out.write_text(_replace_section(previous, PLUGIN_REAL_CODE_HEADING, section), "utf-8")
        print("\n".join(section))
        return 0
    both = not args.detection and not args.cost
    cases = load_cases()
    if args.cases:
        cases = [c for f in FAMILIES for c in [c for c in cases if c.family == f][: args.cases]]
    machine = f"{os.cpu_count()} cores, {platform.system()} {platform.machine()}, Python " + (
        platform.python_version()
    )
    lines = [
        "# Benchmarks",
        "",
        f"Generated by `python scripts/benchmark.py` on {machine}. Ratios are measured in one",
        "run; seconds are context for this machine only.",
    ]
    if args.detection or both:
        runs, copies = detection(cases, args.tools)
        counts = {(f, label): 0 for f in FAMILIES for label in ("vulnerable", "safe")}
        for case in copies.values():
            counts[(case.family, case.label)] += 1
        described = ", ".join(
            f"{f} {counts[(f, 'vulnerable')]} vulnerable / {counts[(f, 'safe')]} safe"
            for f in FAMILIES
        )
        lines += ["", "## Detection", "", f"Corpus: `benchmarks/corpus/` ({described}).", ""]
        lines += [SCORING, ""]
        lines += detection_table(runs, copies)
        missed = mistakes(runs, copies)
        if missed:
            lines += ["", "### Misses and false alarms of typing-literalstring", "", *missed]
        if not args.cases:
            enforcing_tools = [t for t in args.tools if t in ENFORCING]
            lines += ["", *false_alarm_fixes(enforcing_tools, _flagged_safe(runs, copies))]
    if args.cost or both:
        lines += ["", "## Cost", "", *cost(args.reps)]
    if both and CHECKERS["mypy+plugin"].is_installed():
        lines += ["", *plugin_real_code(Path(tempfile.mkdtemp(prefix="tls-plugin-real-code-")))]
    text = "\n".join(lines) + "\n"
    # The sections other scripts write are kept as they were: the held-out CVEs
    # (scripts/cve_benchmark.py --write) and the language server's (scripts/server_benchmark.py).
    previous = args.out.read_text("utf-8") if args.out.exists() else ""
    text += kept_sections(previous)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
