"""IMPACT.md: what tightening str APIs to LiteralString finds and costs on real projects.

PEP 675's acceptance asked for experience reports of moving widely used `str` APIs to
LiteralString.  This runs `typing-literalstring check` on pinned sdists from PyPI, each in a
virtual environment of its own with its runtime dependencies (so imports resolve as they do for
its developers), with pyright and with mypy (our plugin), in the default and strict profiles,
and pyright with --report-any for what only an Any hides; ruff's and bandit's comparable rules
run on the same trees.  Every finding is matched with its label in
benchmarks/impact/labels/<project>.toml (real risk, benign idiom, or tool mistake); a finding
without one is listed as unclassified and the run fails.
benchmarks/impact/fixes/<project>.patch holds the fixes of the benign findings of two projects,
applied to a copy to measure their effort.

    python scripts/impact.py                       # regenerates IMPACT.md (8 min, clean cache)
    python scripts/impact.py --projects invoke --out /tmp/impact.md
    python scripts/impact.py --findings /tmp/findings.json   # also dump every finding
    python scripts/impact.py --allow-unclassified  # write the report even with unlabelled ones

Downloads and environments are cached in --cache (default ~/.cache/typing-literalstring-impact);
delete it for a clean run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import tomlkit

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from scripts.benchmark import BANDIT_TESTS, RUFF_RULES  # noqa: E402
from scripts.plugin_real_code import fetch_sdist  # noqa: E402
from typing_literalstring import __version__  # noqa: E402
from typing_literalstring.analysis.findings import CheckResult  # noqa: E402
from typing_literalstring.checkers import CHECKERS  # noqa: E402
from typing_literalstring.commands.check import run_check  # noqa: E402

IMPACT = REPO / "benchmarks" / "impact"
LABELS = IMPACT / "labels"  # one <project>.toml each
NOTES = IMPACT / "notes.md"
FIXES = IMPACT / "fixes"
OUT = REPO / "IMPACT.md"
PYTHON = "3.12"  # the target every checker is run for
VERDICTS = ("real", "benign", "mistake")


@dataclass(frozen=True)
class Project:
    requirement: str  # the sdist, name==version
    install: tuple[str, ...]  # what pip installs in its environment
    packages: tuple[str, ...]  # the folders (or modules) of the sdist that are checked
    kind: str  # why it is in the list

    @property
    def name(self) -> str:
        return self.requirement.split("==")[0]


PROJECTS = (
    Project("sqlite-utils==4.2.1", ("sqlite-utils==4.2.1",), ("sqlite_utils",), "SQL library"),
    Project("datasette==0.65.5", ("datasette==0.65.5",), ("datasette",), "SQL, templates"),
    Project("peewee==4.5.3", ("peewee==4.5.3",), ("peewee.py", "playhouse"), "ORM"),
    Project("alembic==1.17.2", ("alembic==1.17.2",), ("alembic",), "SQLAlchemy migrations"),
    Project(
        "django-debug-toolbar==6.1.0",
        ("django-debug-toolbar==6.1.0", "django-stubs==6.1.2"),
        ("debug_toolbar",),
        "Django app: SQL, markup",
    ),
    Project("invoke==3.0.3", ("invoke==3.0.3",), ("invoke",), "CLI that shells out"),
    Project("borgmatic==2.1.10", ("borgmatic==2.1.10",), ("borgmatic",), "CLI, logging"),
    Project("beets==2.14.1", ("beets==2.14.1",), ("beets", "beetsplug"), "logging-heavy app"),
)
RUNS = (("pyright", "default"), ("pyright", "strict"), ("mypy", "default"), ("mypy", "strict"))


@dataclass(frozen=True)
class Found:
    """One finding, as its label names it."""

    project: str
    file: str  # relative to the sdist's root
    rule: str
    line: str  # the source line, stripped: what the label matches
    number: int  # the line number, for the reader
    sink: str


@dataclass
class Run:
    checker: str
    profile: str
    seconds: float
    findings: list[Found]
    unresolved: int  # imports that did not resolve
    report_any: bool = False


@dataclass
class ProjectResult:
    project: Project
    root: Path
    lines: int  # non-blank lines of Python checked
    files: int
    runs: list[Run] = field(default_factory=lambda: [])
    ruff: dict[str, int] = field(default_factory=lambda: {})
    bandit: dict[str, int] = field(default_factory=lambda: {})

    @property
    def kloc(self) -> float:
        return self.lines / 1000


@dataclass(frozen=True)
class Label:
    verdict: str  # real, benign or mistake
    idiom: str  # for benign: the idiom's name
    why: str


def python_files(root: Path, packages: Sequence[str]) -> list[Path]:
    found: list[Path] = []
    for package in packages:
        path = root / package
        found += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return found


def count_lines(files: Sequence[Path]) -> int:
    return sum(
        1
        for path in files
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.strip()
    )


def check(
    project: Project, root: Path, python: Path, checker: str, profile: str, cache: Path, *,
    report_any: bool = False,
) -> Run:  # fmt: skip
    started = time.perf_counter()
    result: CheckResult = run_check(
        CHECKERS["mypy+plugin" if checker == "mypy" else checker],
        [root / p for p in project.packages],
        profile=profile,
        python_version=PYTHON,
        cache_dir=cache,
        python=str(python),
        cwd=root,
        report_any=report_any,
    )
    seconds = time.perf_counter() - started
    findings = [
        Found(
            project.name,
            Path(f.path).resolve().relative_to(root.resolve()).as_posix(),
            f.rule.id,
            f.source,
            f.line,
            f.api,
        )
        for f in result.findings
    ]
    return Run(checker, profile, seconds, findings, len(result.unresolved), report_any)


def run_ruff(root: Path, packages: Sequence[str]) -> dict[str, int]:
    done = subprocess.run(
        [_tool("ruff"), "check", "--isolated", "--no-cache", "--output-format=json",
         "--select", ",".join(RUFF_RULES), *packages],
        capture_output=True, text=True, cwd=root, check=False,
    )  # fmt: skip
    if done.returncode not in (0, 1):
        raise SystemExit(f"ruff failed in {root}: {done.stderr[-2000:]}")
    return dict(Counter(item["code"] for item in json.loads(done.stdout)))


def run_bandit(root: Path, packages: Sequence[str]) -> dict[str, int]:
    done = subprocess.run(
        [_tool("bandit"), "-q", "-r", "-f", "json", "-t", ",".join(BANDIT_TESTS), *packages],
        capture_output=True, text=True, cwd=root, check=False,
    )  # fmt: skip
    if done.returncode not in (0, 1):
        raise SystemExit(f"bandit failed in {root}: {done.stderr[-2000:]}")
    return dict(Counter(item["test_id"] for item in json.loads(done.stdout)["results"]))


def environment(install: Sequence[str], folder: Path) -> Path:
    """A virtual environment holding ``install`` and their dependencies (made once, and again
    when ``install`` changes); returns its interpreter (ours when there is nothing to install:
    the test's tiny project)."""
    if not install:
        return Path(sys.executable)
    python = folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    made = folder / "typing-literalstring-installed.json"
    if python.exists() and made.is_file() and json.loads(made.read_text()) == list(install):
        return python
    shutil.rmtree(folder, ignore_errors=True)
    venv.create(folder, with_pip=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *install],
        check=True,
    )
    made.write_text(json.dumps(list(install)), encoding="utf-8")
    return python


def _tool(name: str) -> str:
    local = Path(sys.executable).parent / name
    return str(local) if local.is_file() else name


def measure(project: Project, cache: Path, progress: bool = True) -> ProjectResult:
    root = fetch_sdist(project.requirement, cache / "sdists")
    python = environment(project.install, cache / "envs" / project.name)
    files = python_files(root, project.packages)
    result = ProjectResult(project, root, count_lines(files), len(files))
    for checker, profile in RUNS:
        if progress:
            print(f"{project.name}: {checker} {profile}", file=sys.stderr, flush=True)
        result.runs.append(check(project, root, python, checker, profile, cache / "overlays"))
    if progress:
        print(f"{project.name}: pyright --report-any", file=sys.stderr, flush=True)
    result.runs.append(
        check(project, root, python, "pyright", "default", cache / "overlays", report_any=True)
    )
    result.ruff = run_ruff(root, project.packages)
    result.bandit = run_bandit(root, project.packages)
    return result


# -- labels -------------------------------------------------------------------------------------
def load_labels(folder: Path | None = None) -> dict[tuple[str, str, str, str], Label]:
    """labels/<project>.toml: one ``[[label]]`` table per finding (project, file, rule and the
    stripped source line identify it; verdict, idiom for a benign one, and why)."""
    labels: dict[tuple[str, str, str, str], Label] = {}
    for path in sorted((folder or LABELS).glob("*.toml")):
        document = tomlkit.parse(path.read_text(encoding="utf-8")).unwrap()
        for entry in document.get("label", []):
            if entry.get("verdict") not in VERDICTS or not entry.get("why"):
                raise SystemExit(
                    f"{path}: a label needs a verdict in {VERDICTS} and a why: {entry}"
                )
            if entry["verdict"] == "benign" and not entry.get("idiom"):
                raise SystemExit(f"{path}: a benign label names its idiom: {entry}")
            found = (entry["project"], entry["file"], entry["rule"], entry["line"])
            labels[found] = Label(entry["verdict"], entry.get("idiom", ""), entry["why"])
    return labels


def key(found: Found) -> tuple[str, str, str, str]:
    return (found.project, found.file, found.rule, found.line)


def unique(results: Sequence[ProjectResult]) -> list[Found]:
    """Every distinct finding of every run (the same line and rule once)."""
    seen: dict[tuple[str, str, str, str], Found] = {}
    for result in results:
        for run in result.runs:
            for found in run.findings:
                seen.setdefault(key(found), found)
    return sorted(seen.values(), key=lambda f: (f.project, f.file, f.number, f.rule))


# -- the report ---------------------------------------------------------------------------------
def _rules(findings: Sequence[Found]) -> str:
    counts = Counter(f.rule for f in findings)
    return ", ".join(f"{rule} {n}" for rule, n in sorted(counts.items())) or "none"


def _per_kloc(n: int, kloc: float) -> str:
    return f"{n / kloc:.2f}" if kloc else "-"


def render(
    results: Sequence[ProjectResult],
    labels: dict[tuple[str, str, str, str], Label],
    fixes: Sequence[str],
) -> str:
    lines = [
        "# Impact: tightening str APIs to LiteralString on real projects",
        "",
        f"Generated by `python scripts/impact.py` (typing-literalstring {__version__}; "
        + ", ".join(f"{n} {CHECKERS[n].version()}" for n in ("pyright", "mypy+plugin"))
        + f"; Python target {PYTHON}). Do not edit: the prose that interprets the figures is "
        "in `benchmarks/impact/notes.md`, included below; each finding's label is in "
        "`benchmarks/impact/labels/`.",
        "",
        "## Projects and findings",
        "",
        "Each project is its sdist from PyPI, checked from its root in a virtual environment "
        "holding its runtime dependencies. Findings are counted per rule; per KLOC counts the "
        "non-blank lines of the checked folders. ruff's rules: "
        + ", ".join(sorted(RUFF_RULES))
        + "; bandit's tests: "
        + ", ".join(sorted(BANDIT_TESTS))
        + ".",
        "",
        "| project | kind | KLOC | checker, profile | findings by rule | per KLOC | time | "
        "unresolved imports |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for run in r.runs:
            name = f"{run.checker} {run.profile}" + (" --report-any" if run.report_any else "")
            lines.append(
                f"| {r.project.requirement} | {r.project.kind} | {r.kloc:.1f} | {name} | "
                f"{_rules(run.findings)} | {_per_kloc(len(run.findings), r.kloc)} | "
                f"{run.seconds:.0f} s | {run.unresolved} |"
            )
    lines += [
        "",
        "| project | ruff (same trees) | bandit (same trees) |",
        "|---|---|---|",
    ]
    for r in results:
        ruff = ", ".join(f"{c} {n}" for c, n in sorted(r.ruff.items())) or "none"
        bandit = ", ".join(f"{c} {n}" for c, n in sorted(r.bandit.items())) or "none"
        lines.append(f"| {r.project.requirement} | {ruff} | {bandit} |")
    everything = unique(results)
    labelled = [(f, labels.get(key(f))) for f in everything]
    known = [(f, label) for f, label in labelled if label is not None]
    verdicts = Counter(label.verdict for _, label in known)
    total = len(everything)
    lines += ["", "## Totals", ""]
    lines.append(
        f"{total} distinct findings (a line and rule once, whichever run reported it) in "
        f"{sum(r.kloc for r in results):.1f} KLOC: "
        + ", ".join(
            f"{verdicts[v]} {v} ({100 * verdicts[v] / total:.0f}%)" if total else f"0 {v}"
            for v in VERDICTS
        )
        + (f", {total - len(known)} unclassified" if total != len(known) else "")
        + "."
    )
    lines += ["", "| verdict by rule | " + " | ".join(VERDICTS) + " |", "|---|---|---|---|"]
    for rule in sorted({f.rule for f in everything}):
        row = Counter(label.verdict for f, label in known if f.rule == rule)
        lines.append(f"| {rule} | " + " | ".join(str(row[v]) for v in VERDICTS) + " |")
    idioms = Counter(label.idiom for _, label in known if label.verdict == "benign")
    lines += ["", "Benign idioms, by frequency:", "", "| idiom | findings |", "|---|---|"]
    lines += [f"| {idiom} | {n} |" for idiom, n in idioms.most_common()]
    lines += ["", "## Every finding", ""]
    lines += ["| project | file:line | rule | verdict | why |", "|---|---|---|---|---|"]
    for f, label in labelled:
        if label is None:
            verdict, why = "**unclassified**", f"`{f.line}`"
        else:
            verdict = label.verdict + (f" ({label.idiom})" if label.idiom else "")
            why = label.why
        lines.append(f"| {f.project} | `{f.file}:{f.number}` | {f.rule} | {verdict} | {why} |")
    if fixes:
        lines += ["", "## The fixes, applied", "", *fixes]
    if NOTES.is_file():
        lines += ["", NOTES.read_text(encoding="utf-8").rstrip()]
    return "\n".join(lines) + "\n"


# -- fixes ----------------------------------------------------------------------------------------
def apply_fixes(results: Sequence[ProjectResult], cache: Path) -> list[str]:
    """For each project with a patch in benchmarks/impact/fixes/: its size, and pyright's
    findings before and after in both profiles, on a patched copy."""
    rows: list[str] = []
    for r in results:
        patch = FIXES / f"{r.project.name}.patch"
        if not patch.is_file():
            continue
        text = patch.read_text(encoding="utf-8").splitlines()
        added = sum(1 for x in text if x.startswith("+") and not x.startswith("+++"))
        removed = sum(1 for x in text if x.startswith("-") and not x.startswith("---"))
        files = sum(1 for x in text if x.startswith("+++ "))
        figures: list[str] = []
        with tempfile.TemporaryDirectory(prefix="tls-impact-") as tmp:
            copy = Path(tmp) / r.root.name
            shutil.copytree(r.root, copy)
            subprocess.run(["patch", "-s", "-p1", "-i", str(patch)], cwd=copy, check=True)
            python = environment(r.project.install, cache / "envs" / r.project.name)
            for profile in ("default", "strict"):
                after = check(r.project, copy, python, "pyright", profile, cache / "overlays")
                before = next(
                    x for x in r.runs if (x.checker, x.profile, x.report_any) == (
                        "pyright", profile, False)
                )  # fmt: skip
                figures.append(
                    f"{profile} {len(before.findings)} -> {len(after.findings)}"
                    + (f" ({_rules(after.findings)} left)" if after.findings else "")
                )
        rows.append(
            f"- {r.project.requirement}: `benchmarks/impact/fixes/{patch.name}`, {files} files, "
            f"+{added} -{removed} lines; pyright findings {', '.join(figures)}."
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--projects", nargs="*", help="names of PROJECTS (default: all)")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
        / "typing-literalstring-impact",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--findings", type=Path, help="also write every finding as JSON here")
    parser.add_argument("--allow-unclassified", action="store_true")
    args = parser.parse_args(argv)
    chosen = [p for p in PROJECTS if not args.projects or p.name in args.projects]
    if args.projects and len(chosen) != len(args.projects):
        raise SystemExit(f"unknown project in {args.projects}: choose from "
                         + ", ".join(p.name for p in PROJECTS))  # fmt: skip
    started = time.perf_counter()
    results = [measure(project, args.cache) for project in chosen]
    labels = load_labels()
    fixes = apply_fixes(results, args.cache)
    everything = unique(results)
    if args.findings:
        args.findings.write_text(
            json.dumps([f.__dict__ for f in everything], indent=1) + "\n", encoding="utf-8"
        )
    args.out.write_text(render(results, labels, fixes), encoding="utf-8")
    unclassified = [f for f in everything if key(f) not in labels]
    print(
        f"wrote {args.out}: {len(everything)} findings, {len(unclassified)} unclassified, "
        f"in {time.perf_counter() - started:.0f} s"
    )
    for f in unclassified:
        print(f"  unclassified: {f.project} {f.file}:{f.number} {f.rule} {f.line}")
    return 1 if unclassified and not args.allow_unclassified else 0


if __name__ == "__main__":
    raise SystemExit(main())
