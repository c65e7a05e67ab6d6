"""IMPACT.md and docs/typeshed-report.md: what tightening str APIs to LiteralString finds and
costs on real projects.

PEP 675's acceptance asked for experience reports of moving widely used `str` APIs to
LiteralString.  This runs `typing-literalstring check` on the projects of
benchmarks/impact/projects.toml, each its pinned sdist from PyPI in a virtual environment of its
own with its dependencies (so imports resolve as they do for its developers), with pyright and
with mypy (our plugin).  Each run is in the strict profile; the default profile's findings are
the same run's less LS302, for the two profiles differ only in the logging condition (a literal
message even without formatting arguments, specs/tighten.py).  Every SQL, shell, template and
markup call is counted by its outcome (proven literal, a finding, unverified), per sink API.
ruff's and bandit's comparable rules run on the same trees.

Every finding is matched with its label: one read at its call site (benchmarks/impact/labels/,
keyed by project, file, line number, rule and statement text) or a rule written out in
benchmarks/impact/rules.toml; a finding with neither is listed as unlabelled and counted, and
the run fails unless --allow-unlabelled.  A project that cannot be fetched or built is listed
with the reason.

    python scripts/impact.py                       # every project: IMPACT.md, typeshed report
    python scripts/impact.py --check-jobs 1        # one project at a time (default: two)
    python scripts/impact.py --render-only         # from the cached results, no checker run
    python scripts/impact.py --build-only --jobs 3 # fetch and build the environments only
    python scripts/impact.py --projects invoke --out /tmp/impact.md --typeshed /tmp/t.md
    python scripts/impact.py --reuse               # re-render from the cached check results
    python scripts/impact.py --findings /tmp/findings.json   # also dump every finding

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
from dataclasses import asdict
from pathlib import Path
from typing import Callable, Sequence

import tomlkit

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from scripts.benchmark import BANDIT_TESTS, RUFF_RULES  # noqa: E402
from scripts.impact_labels import Labels, load_labels  # noqa: E402
from scripts.impact_model import (  # noqa: E402
    Call,
    Found,
    Project,
    ProjectResult,
    Run,
)
from scripts.impact_report import render_impact, render_typeshed  # noqa: E402
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
CHECKS = ("pyright", "mypy")  # each in the strict profile
NOT_RUN = "not run: no check results in the cache (the run did not reach it)"


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
) -> Run:  # fmt: skip
    """One strict-profile run, with every SQL, shell, template and markup call's outcome."""
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
            profile="strict",
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


def measure(project: Project, cache: Path, log: Callable[[str], None]) -> ProjectResult:
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
            result.runs.append(check(project, root, python, checker, cache / "overlays"))
        except Exception as error:  # a checker that fails is reported, not fatal
            result.failed_runs[checker] = f"{type(error).__name__}: {str(error)[:300]}"
            log(f"{project.name}: {checker} failed: {error}")
    result.ruff = run_ruff(root, project.packages)
    result.bandit = run_bandit(root, project.packages)
    return result


def _measure_and_save(project: Project, cache: Path) -> ProjectResult:
    result = measure(project, cache, _log)
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
    parser.add_argument("--findings", type=Path, help="also write every finding as JSON here")
    parser.add_argument("--allow-unlabelled", action="store_true")
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
        help="render from the cached check results alone; a project without one is listed as "
        "not run",
    )
    args = parser.parse_args(argv)
    projects = load_projects()
    chosen = [p for p in projects if not args.projects or p.name in args.projects]
    if args.projects and len(chosen) != len(args.projects):
        raise SystemExit(f"unknown project in {args.projects}: choose from "
                         + ", ".join(p.name for p in projects))  # fmt: skip

    log = _log
    started = time.perf_counter()
    if args.build_only:

        def one(project: Project) -> str:
            try:
                build(project, args.cache)
            except BuildError as error:
                return f"{project.name}: not built: {error}"
            return f"{project.name}: built"

        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for line in pool.map(one, chosen):
                log(line)
        log(f"built in {time.perf_counter() - started:.0f} s")
        return 0
    found: dict[str, ProjectResult] = {}
    to_run: list[Project] = []
    for project in chosen:
        saved = _result_file(args.cache, project)
        if (args.reuse or args.render_only) and saved.is_file():
            found[project.name] = ProjectResult.from_json(project, json.loads(saved.read_text()))
        elif args.render_only:
            found[project.name] = ProjectResult(project, failure=NOT_RUN)
        else:
            to_run.append(project)
    if args.check_jobs > 1 and len(to_run) > 1:
        # Each project in a process of its own (the sink outcomes are recorded by patching a
        # module function, which threads would share).
        with ProcessPoolExecutor(args.check_jobs) as processes:
            done = processes.map(_measure_and_save, to_run, [args.cache] * len(to_run))
            found.update((r.project.name, r) for r in done)
    else:
        found.update((p.name, _measure_and_save(p, args.cache)) for p in to_run)
    results = [found[p.name] for p in chosen]
    labels: Labels = load_labels()
    seconds = time.perf_counter() - started
    args.out.write_text(render_impact(results, labels, seconds), encoding="utf-8")
    args.typeshed.parent.mkdir(parents=True, exist_ok=True)
    args.typeshed.write_text(render_typeshed(results, labels), encoding="utf-8")
    everything = [f for r in results for f in r.distinct()]
    if args.findings:
        args.findings.write_text(
            json.dumps([asdict(f) for f in everything], indent=1) + "\n", encoding="utf-8"
        )
    unlabelled = [f for f in everything if labels.of(f) is None]
    print(
        f"wrote {args.out} and {args.typeshed}: {len(everything)} findings, "
        f"{len(unlabelled)} unlabelled, in {seconds:.0f} s"
    )
    for f in unlabelled:
        print(f"  unlabelled: {f.project} {f.file}:{f.number} {f.rule} {f.line}")
    return 1 if unlabelled and not args.allow_unlabelled else 0


if __name__ == "__main__":
    raise SystemExit(main())
