"""The findings of every project, published as data: benchmarks/impact/results/<project>.json.

One file per project, small and deterministic (sorted keys, no timestamps, no absolute paths,
no timings): what was measured (lines, files, each checker's counts of sink calls by API and
outcome, the logging calls counted by name, ruff's and bandit's counts) and every distinct
finding with its facts (impact_facts.py: the statement, its scope, the non-literal parts of
its text, a log call's arguments and logger).  The report is rendered from these files, and
the tests check every label and rule against them, so neither needs the cold run.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Mapping, Sequence

from scripts.impact_facts import Reader
from scripts.impact_model import Call, Found, Key, Project, ProjectResult, Run
from scripts.impact_source import Project as Source

RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "impact" / "results"
CHECKS = ("pyright", "mypy")  # scripts/impact.py's runs, in its order


def _counts(calls: Sequence[Call]) -> list[dict[str, object]]:
    """Calls counted by API, rule and outcome (their places are not needed to render)."""
    counted = Counter((c.api, c.rule, c.outcome) for c in calls)
    return [
        {"api": api, "rule": rule, "outcome": outcome, "count": n}
        for (api, rule, outcome), n in sorted(counted.items())
    ]


def _calls(counts: Sequence[Mapping[str, Any]]) -> list[Call]:
    return [
        Call("", 0, c["api"], c["rule"], c["outcome"]) for c in counts for _ in range(c["count"])
    ]


def publish(result: ProjectResult, root: Path | None, folder: Path) -> dict[str, Any]:
    """The project's results as published (``root``: its sdist, to read each finding's facts;
    None when it is not there, which leaves the facts out), written to ``folder``."""
    facts: dict[Key, dict[str, object]] = {}
    setup: list[str] = []
    distinct = result.distinct()
    if root is not None and distinct:
        files = sorted({f.file for f in distinct} | _python_files(root, result.project.packages))
        reader = Reader(Source(root, files))
        facts = {f.key: reader.facts(f) for f in distinct}
        setup = reader.logging.setup
    checkers = {
        f.key: {run.checker: f.api for run in result.runs for g in run.findings if g.key == f.key}
        for f in distinct
    }
    data: dict[str, Any] = {
        "project": result.project.name,
        "version": result.project.version,
        "measured_at": result.tool,
        "lines": result.lines,
        "files": result.files,
        "failure": result.failure,
        "failed_runs": result.failed_runs,
        "ruff": result.ruff,
        "bandit": result.bandit,
        "log_setup": setup,
        "logging_calls": _counts(result.logging),
        "runs": {
            run.checker: {
                "unresolved": run.unresolved,
                "sink_calls": run.sink_calls,
                "proven_total": run.proven_total,
                "calls": _counts([*run.proven, *run.unverified]),
            }
            for run in result.runs
        },
        "findings": [
            {
                "file": f.file,
                "number": f.number,
                "rule": f.rule,
                "line": f.line,
                "checkers": checkers[f.key],
                **facts.get(f.key, {}),
            }
            for f in distinct
        ],
    }
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    (folder / f"{result.project.name}.json").write_text(text, encoding="utf-8")
    return data


def _python_files(root: Path, packages: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for package in packages:
        path = root / package
        paths = [path] if path.is_file() else sorted(path.rglob("*.py"))
        found |= {p.relative_to(root).as_posix() for p in paths}
    return found


class Published:
    """What the report is rendered from: each project's result, and its findings' facts."""

    def __init__(self) -> None:
        self.results: list[ProjectResult] = []
        self.facts: dict[Key, dict[str, object]] = {}
        self.projects: dict[str, dict[str, object]] = {}  # project -> its own facts (log_setup)

    def add(self, project: Project, data: Mapping[str, Any]) -> None:
        findings: dict[str, list[Found]] = {}
        for entry in data["findings"]:
            for checker, api in entry["checkers"].items():
                found = Found(project.name, entry["file"], entry["rule"], entry["line"],
                              entry["number"], api)  # fmt: skip
                findings.setdefault(checker, []).append(found)
            key = (project.name, entry["file"], entry["number"], entry["rule"], entry["line"])
            self.facts[key] = {
                k: v for k, v in entry.items()
                if k not in ("file", "number", "rule", "line", "checkers")
            }  # fmt: skip
        runs = [
            Run(
                checker,
                0.0,
                findings.get(checker, []),
                run["unresolved"],
                run["sink_calls"],
                run["proven_total"],
                [c for c in _calls(run["calls"]) if c.outcome == "proven"],
                [c for c in _calls(run["calls"]) if c.outcome != "proven"],
            )
            for checker, run in sorted(data["runs"].items(), key=lambda r: _order(r[0]))
        ]
        self.projects[project.name] = {"log_setup": data.get("log_setup", [])}
        self.results.append(
            ProjectResult(
                project,
                data["lines"],
                data["files"],
                data["failure"],
                runs,
                data["failed_runs"],
                _calls(data["logging_calls"]),
                data["ruff"],
                data["bandit"],
                data["measured_at"],
            )
        )


def _order(checker: str) -> tuple[int, str]:
    """pyright's run first, as measured (a finding's API is its first run's)."""
    return (CHECKS.index(checker) if checker in CHECKS else len(CHECKS), checker)


def load(projects: Sequence[Project], folder: Path) -> tuple[Published, list[Project]]:
    """The published results of ``projects`` and the projects that have none."""
    published = Published()
    missing: list[Project] = []
    for project in projects:
        path = folder / f"{project.name}.json"
        if not path.is_file():
            missing.append(project)
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["version"] != project.version:
            missing.append(project)  # measured at another version: not this list's
            continue
        published.add(project, data)
    return published, missing
