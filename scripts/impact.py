"""IMPACT.md and docs/typeshed-report.md: what tightening str APIs to LiteralString finds and
costs on real projects.

PEP 675's acceptance asked for experience reports of moving widely used `str` APIs to
LiteralString.  This runs `typing-literalstring check` on the projects of
benchmarks/impact/projects.toml, each its pinned sdist from PyPI in a virtual environment of its
own with its dependencies (so imports resolve as they do for its developers), with pyright and
with mypy (our plugin).  Each run is in the strict profile; the default profile's findings are
the same run's less the strict-only ones (LS302, and an LS9xx finding at a log call without
formatting arguments: impact_facts.strict_only), for the two profiles differ only in the
logging condition (a literal message even without formatting arguments, specs/tighten.py).
Every SQL, shell, template and markup call is counted by its outcome (proven literal, a
finding, unverified), per sink API.  ruff's and bandit's comparable rules run on the same
trees.

Each project's findings are published with their facts (the statement, its scope, the
non-literal parts of its text, a log call's arguments and logger: impact_facts.py) in
benchmarks/impact/results/<project>.json, and the reports are rendered from those files.  Every
finding is matched with its label: one read at its call site (benchmarks/impact/labels/,
impact_labels.py) or a rule of benchmarks/impact/rules.toml whose claim holds for it
(impact_rules.py).  Findings are counted as flows (impact_assess.py).  The run fails (exit
status 1, unless --allow-unlabelled) while a flow is unlabelled or a label contradicts its
finding's facts; a label that contradicts the report's definitions in its own words stops it
at once.  A project that cannot be fetched or built is listed with the reason.

    python scripts/impact.py                       # every project: results, IMPACT.md, typeshed
    python scripts/impact.py --check-jobs 1        # one project at a time (default: two)
    python scripts/impact.py --render-only         # from benchmarks/impact/results alone
    python scripts/impact.py --reuse               # publish and render from the cached runs
    python scripts/impact.py --render-only --prune-stale   # and drop labels matching nothing
    python scripts/impact.py --build-only --jobs 3 # fetch and build the environments only
    python scripts/impact.py --projects invoke --out /tmp/impact.md --typeshed /tmp/t.md \
        --results /tmp/results

Downloads, environments and each project's check results are cached in --cache (default
~/.cache/typing-literalstring-impact); delete it for a clean run.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
import venv
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

import tomlkit

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from scripts.benchmark import BANDIT_TESTS, RUFF_RULES  # noqa: E402
from scripts.impact_assess import Assessment, assess  # noqa: E402
from scripts.impact_labels import load_labels, prune  # noqa: E402
from scripts.impact_model import (  # noqa: E402
    Call,
    Found,
    Project,
    ProjectResult,
    Run,
)
from scripts.impact_report import render_impact  # noqa: E402
from scripts.impact_results import RESULTS, load, publish  # noqa: E402
from scripts.impact_typeshed import render_typeshed  # noqa: E402
from scripts.plugin_real_code import extract_sdist  # noqa: E402
from typing_literalstring.analysis import sink_outcomes  # noqa: E402
from typing_literalstring.analysis.findings import CheckResult, Finding  # noqa: E402
from typing_literalstring.analysis.sink_looks import Look  # noqa: E402
from typing_literalstring.analysis.unverified import Instrumented  # noqa: E402
from typing_literalstring.checkers import CHECKERS  # noqa: E402
from typing_literalstring.commands.check import run_check  # noqa: E402
from typing_literalstring.specs.sinks import LOGGING, LOGGING_MESSAGE, find_sink_calls  # noqa: E402

IMPACT = REPO / "benchmarks" / "impact"
PROJECTS = IMPACT / "projects.toml"
OUT = REPO / "IMPACT.md"
TYPESHED = REPO / "docs" / "typeshed-report.md"
PYTHON = "3.12"  # the target every checker is run for
CHECKS = ("pyright", "mypy")  # each in the strict profile (scripts/unseen.py: the default)
NOT_RUN = "not run: no published results (the run did not reach it)"


def load_projects(path: Path | None = None) -> list[Project]:
    document = tomlkit.parse((path or PROJECTS).read_text(encoding="utf-8")).unwrap()
    return [
        Project(
            p["name"],
            p["version"],
            tuple(p["packages"]),
            p["kind"],
            p["why"],
            tuple(p.get("install", ())),
        )
        for p in document["project"]
    ]


# -- fetching and building ----------------------------------------------------------------------
class BuildError(Exception):
    """A project that could not be fetched or installed; the message says why."""


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def fetch(project: Project, into: Path) -> Path:
    """The project's sdist, downloaded (its sdist, never a wheel: ``--no-binary NAME``; the
    build dependencies pip needs to read its metadata may be wheels, as building them from
    source too made Cython compile for minutes and failed tox) and unpacked once; its root."""
    wanted = _normalised(f"{project.name}-{project.version}")

    def archives() -> list[Path]:
        return [p for p in into.glob("*.tar.gz") if _normalised(p.name[:-7]) == wanted]

    if not archives():
        into.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
             "--no-deps", "--no-binary", project.name, "-d", str(into), project.requirement],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0 or not archives():
            raise BuildError("sdist download failed: " + _last_error(done.stderr))
    (archive,) = archives()
    return extract_sdist(archive, into / "src")


def _last_error(stderr: str) -> str:
    lines = [x.strip() for x in stderr.splitlines() if x.strip()]
    lines = [x for x in lines if not x.startswith("WARNING: Location")]
    errors = (
        [x for x in lines if x.startswith("ERROR:")]
        or [x for x in lines if "error" in x.lower()]
        or lines
    )
    return " / ".join(errors[-3:])[:400] or "no message"


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
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *install],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise BuildError("pip install failed: " + _last_error(done.stderr))
    made.write_text(json.dumps(list(install)), encoding="utf-8")
    return python


def build(project: Project, cache: Path) -> tuple[Path, Path]:
    """The project's root and its environment's interpreter; BuildError says why not."""
    root = fetch(project, cache / "sdists")
    missing = [p for p in project.packages if not (root / p).exists()]
    if missing:
        raise BuildError(f"not in the sdist: {', '.join(missing)}")
    return root, environment(project.install, cache / "envs" / project.name)


# -- measuring ----------------------------------------------------------------------------------
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


def logging_sites(root: Path, files: Sequence[Path]) -> list[Call]:
    """Every call named like a logging method (by its name alone: what the checker judges is
    its findings), as (api, rule) at its place."""
    sites: list[Call] = []
    for path in files:
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
        relative = path.relative_to(root).as_posix()
        for call in find_sink_calls(calls, source):
            if call.rule in (LOGGING, LOGGING_MESSAGE):
                sites.append(Call(relative, call.line, call.api, call.rule.id, "site"))
    return sites


def check(
    project: Project, root: Path, python: Path, checker: str, cache: Path,
    profile: str = "strict",
) -> Run:  # fmt: skip
    """One run in ``profile``, with every SQL, shell, template and markup call's outcome."""
    proven: list[Call] = []
    original = sink_outcomes.outcomes

    def recording(
        path: str,
        found: Sequence[Look],
        instrumented: Instrumented,
        reported: Sequence[Finding],
        untyped_functions: frozenset[str],
        asked: bool = True,
    ) -> sink_outcomes.Outcomes:
        out = original(path, found, instrumented, reported, untyped_functions, asked)
        at = set(out.proven_at)
        for look in found:
            if (look.call.lineno, look.call.col_offset + 1) in at:
                proven.append(Call(_relative(path, root), look.call.lineno, look.api,
                                   look.rule.id, "proven"))  # fmt: skip
        return out

    started = time.perf_counter()
    sink_outcomes.outcomes = recording
    try:
        result: CheckResult = run_check(
            CHECKERS["mypy+plugin" if checker == "mypy" else checker],
            [root / p for p in project.packages],
            profile=profile,
            python_version=PYTHON,
            cache_dir=cache,
            python=str(python),
            cwd=root,
        )
    finally:
        sink_outcomes.outcomes = original
    seconds = time.perf_counter() - started
    findings = [
        Found(project.name, _relative(f.path, root), f.rule.id, f.source, f.line, f.api)
        for f in result.findings
    ]
    unverified = [
        Call(_relative(u.path, root), u.line, u.api, "", "unverified:" + u.reason)
        for u in result.unverified
    ]
    return Run(
        checker, seconds, findings, len(result.unresolved), result.sink_calls, result.proven,
        proven, unverified,
    )  # fmt: skip


def _relative(path: str, root: Path) -> str:
    return Path(path).resolve().relative_to(root.resolve()).as_posix()


def run_ruff(root: Path, packages: Sequence[str]) -> dict[str, int]:
    done = subprocess.run(
        [_tool("ruff"), "check", "--isolated", "--no-cache", "--output-format=json",
         "--select", ",".join(RUFF_RULES), *packages],
        capture_output=True, text=True, cwd=root, check=False,
    )  # fmt: skip
    if done.returncode not in (0, 1):
        return {"ruff failed": 1}
    return dict(Counter(item["code"] for item in json.loads(done.stdout)))


def run_bandit(root: Path, packages: Sequence[str]) -> dict[str, int]:
    done = subprocess.run(
        [_tool("bandit"), "-q", "-r", "-f", "json", "-t", ",".join(BANDIT_TESTS), *packages],
        capture_output=True, text=True, cwd=root, check=False,
    )  # fmt: skip
    try:
        return dict(Counter(item["test_id"] for item in json.loads(done.stdout)["results"]))
    except (json.JSONDecodeError, KeyError):
        return {"bandit failed": 1}


def _tool(name: str) -> str:
    local = Path(sys.executable).parent / name
    return str(local) if local.is_file() else name


def measure(
    project: Project, cache: Path, log: Callable[[str], None], profile: str = "strict"
) -> ProjectResult:
    try:
        root, python = build(project, cache)
    except BuildError as error:
        log(f"{project.name}: not built: {error}")
        return ProjectResult(project, failure=str(error))
    files = python_files(root, project.packages)
    result = ProjectResult(project, lines=count_lines(files), files=len(files), tool=_commit())
    result.logging = logging_sites(root, files)
    for checker in CHECKS:
        log(f"{project.name}: {checker}")
        try:
            result.runs.append(check(project, root, python, checker, cache / "overlays", profile))
        except Exception as error:  # a checker that fails is reported, not fatal
            result.failed_runs[checker] = f"{type(error).__name__}: {str(error)[:300]}"
            log(f"{project.name}: {checker} failed: {error}")
    result.ruff = run_ruff(root, project.packages)
    result.bandit = run_bandit(root, project.packages)
    return result


def _measure_and_save(project: Project, cache: Path, profile: str = "strict") -> ProjectResult:
    result = measure(project, cache, _log, profile)
    saved = _result_file(cache, project)
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps(result.to_json()), encoding="utf-8")
    return result


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _commit() -> str:
    """typing-literalstring's commit, with "+" when its package differs from it (others may
    change the analysis while a long run goes on: each result says what measured it)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                          capture_output=True, text=True, check=False).stdout.strip()  # fmt: skip
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "typing_literalstring", "stubs"],
        cwd=REPO, capture_output=True, text=True, check=False,
    ).stdout  # fmt: skip
    return head + ("+" if dirty.strip() else "")


def _result_file(cache: Path, project: Project) -> Path:
    return cache / "results" / f"{project.name}-{project.version}.json"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--projects", nargs="*", help="names in projects.toml (default: all)")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
        / "typing-literalstring-impact",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--typeshed", type=Path, default=TYPESHED)
    parser.add_argument("--results", type=Path, default=RESULTS, help="the published results")
    parser.add_argument("--allow-unlabelled", action="store_true")
    parser.add_argument(
        "--prune-stale",
        action="store_true",
        help="remove the labels read at a site that match no finding of a checked project",
    )
    parser.add_argument("--build-only", action="store_true", help="fetch and build, no checks")
    parser.add_argument("--jobs", type=int, default=2, help="environments built at once")
    parser.add_argument(
        "--check-jobs", type=int, default=2, help="projects checked at once, one process each"
    )
    parser.add_argument(
        "--reuse", action="store_true", help="take each project's check results from the cache"
    )
    parser.add_argument(
        "--render-only",
        action="store_true",
        help="render from the published results alone (--results); a project without one is "
        "listed as not run",
    )
    args = parser.parse_args(argv)
    projects = load_projects()
    chosen = [p for p in projects if not args.projects or p.name in args.projects]
    if args.projects and len(chosen) != len(args.projects):
        raise SystemExit(f"unknown project in {args.projects}: choose from "
                         + ", ".join(p.name for p in projects))  # fmt: skip
    labels = load_labels()  # a label that contradicts itself stops the run before it starts
    started = time.perf_counter()
    if args.build_only:
        _build_all(chosen, args.cache, args.jobs)
        return 0
    measured: dict[str, ProjectResult] = {}
    if not args.render_only:
        measured = _measure_all(chosen, args.cache, args.reuse, args.check_jobs)
        for result in measured.values():
            publish(result, _root(result, args.cache), args.results)
    published, missing = load(chosen, args.results)
    for result in published.results:  # timings are no published data: the run's own
        run = measured.get(result.project.name) or _cached(result.project, args.cache)
        for mine in result.runs:
            mine.seconds = next((x.seconds for x in run.runs if x.checker == mine.checker), 0.0
                                ) if run else 0.0  # fmt: skip
    found = {r.project.name: r for r in published.results}
    found.update((p.name, ProjectResult(p, failure=NOT_RUN)) for p in missing)
    results = [found[p.name] for p in chosen]
    assessed = assess(results, published.facts, published.projects, labels)
    if args.prune_stale and assessed.match.stale:
        print(f"removed {prune(assessed.match.stale)} labels that matched no finding")
        labels = load_labels()
        assessed = assess(results, published.facts, published.projects, labels)
    seconds = time.perf_counter() - started
    args.out.write_text(render_impact(results, assessed, labels, seconds), encoding="utf-8")
    args.typeshed.parent.mkdir(parents=True, exist_ok=True)
    args.typeshed.write_text(render_typeshed(results, assessed, labels), encoding="utf-8")
    return _summary(args, assessed, seconds)


def _summary(args: argparse.Namespace, assessed: Assessment, seconds: float) -> int:
    """What the run says on its way out, and its exit status: 1 while a flow is unlabelled
    or a label contradicts its finding's facts (unless --allow-unlabelled)."""
    unlabelled = assessed.unlabelled()
    wrong = assessed.wrong()
    match = assessed.match
    print(
        f"wrote {args.out}, {args.typeshed} and {args.results}: {len(assessed.findings)} "
        f"findings, {len(assessed.flows())} flows, {len(unlabelled)} unlabelled, {len(wrong)} "
        f"labels contradicting their finding, {len(match.stale)} labels matching nothing, "
        f"in {seconds:.0f} s"
    )
    for f in unlabelled:
        refused = "; ".join(f"{rule}: {why}" for rule, why in match.rejected.get(f.key, []))
        print(f"  unlabelled: {f.project} {f.file}:{f.number} {f.rule} {f.line}"
              + (f" (refused by {refused})" if refused else ""))  # fmt: skip
    for f, why in wrong:
        print(f"  contradicted: {f.project} {f.file}:{f.number} {f.rule}: {why}")
    return 1 if (unlabelled or wrong) and not args.allow_unlabelled else 0


def _build_all(chosen: Sequence[Project], cache: Path, jobs: int) -> None:
    started = time.perf_counter()

    def one(project: Project) -> str:
        try:
            build(project, cache)
        except BuildError as error:
            return f"{project.name}: not built: {error}"
        return f"{project.name}: built"

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        for line in pool.map(one, chosen):
            _log(line)
    _log(f"built in {time.perf_counter() - started:.0f} s")


def _measure_all(
    chosen: Sequence[Project], cache: Path, reuse: bool, jobs: int, profile: str = "strict"
) -> dict[str, ProjectResult]:
    """Each project's result: measured now, or from the cache (``reuse``)."""
    found: dict[str, ProjectResult] = {}
    to_run: list[Project] = []
    for project in chosen:
        saved = _cached(project, cache) if reuse else None
        if saved is not None:
            found[project.name] = saved
        else:
            to_run.append(project)
    if jobs > 1 and len(to_run) > 1:
        # Each project in a process of its own (the sink outcomes are recorded by patching a
        # module function, which threads would share).
        with ProcessPoolExecutor(jobs) as processes:
            done = processes.map(
                _measure_and_save, to_run, [cache] * len(to_run), [profile] * len(to_run)
            )
            found.update((r.project.name, r) for r in done)
    else:
        found.update((p.name, _measure_and_save(p, cache, profile)) for p in to_run)
    return found


def _cached(project: Project, cache: Path) -> ProjectResult | None:
    saved = _result_file(cache, project)
    if not saved.is_file():
        return None
    return ProjectResult.from_json(project, json.loads(saved.read_text(encoding="utf-8")))


def _root(result: ProjectResult, cache: Path) -> Path | None:
    """The project's unpacked sdist, to read its findings' facts (None if not built)."""
    if result.failure:
        return None
    try:
        return fetch(result.project, cache / "sdists")
    except BuildError:
        return None


if __name__ == "__main__":
    raise SystemExit(main())
