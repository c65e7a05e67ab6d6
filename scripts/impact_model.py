"""What scripts/impact.py measures: projects, runs, findings and sink calls (kept as JSON in
the cache, so that a report can be rendered again without running the checkers)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Tuple

# A finding's place: project, file, line number, rule, the line's stripped text.
Key = Tuple[str, str, int, str, str]


@dataclass(frozen=True)
class Project:
    name: str
    version: str
    packages: tuple[str, ...]  # the folders (or modules) of the sdist that are checked
    kind: str
    why: str  # why it is in the list
    extra: tuple[str, ...] = ()  # installed beside it (stubs, optional dependencies)
    installed: bool = True  # False: checked with our own interpreter (the test's tiny project)

    @property
    def requirement(self) -> str:
        return f"{self.name}=={self.version}"

    @property
    def install(self) -> tuple[str, ...]:
        """What pip installs in its environment (nothing: the test's tiny project)."""
        return (self.requirement, *self.extra) if self.installed else ()


@dataclass(frozen=True)
class Found:
    """One finding at one place: a label names it by all of these but ``api``."""

    project: str
    file: str  # relative to the sdist's root
    rule: str
    line: str  # the statement's source line, stripped
    number: int  # its line number
    api: str

    @property
    def key(self) -> Key:
        return (self.project, self.file, self.number, self.rule, self.line)


@dataclass(frozen=True)
class Call:
    """A sink call that is not a finding: proven literal, unverified, or (logging) a site."""

    file: str
    number: int
    api: str
    rule: str
    outcome: str  # "proven", "unverified:<reason>", "site"


@dataclass
class Run:
    checker: str  # pyright or mypy (with our plugin); always the strict profile
    seconds: float
    findings: list[Found]
    unresolved: int  # imports that did not resolve
    sink_calls: int  # SQL, shell, template and markup calls (CheckResult.sink_calls)
    proven_total: int  # of those proven literal (CheckResult.proven)
    proven: list[Call]  # the proven ones we could place (a wrapper's caller may not be)
    unverified: list[Call]
    # The default profile's findings are these less the strict-only ones, which only the
    # findings' facts tell apart: Assessment.default (impact_assess.py).


@dataclass
class ProjectResult:
    project: Project
    lines: int = 0  # non-blank lines of Python checked
    files: int = 0
    failure: str = ""  # why it was not built, if it was not
    runs: list[Run] = field(default_factory=lambda: [])
    failed_runs: dict[str, str] = field(default_factory=lambda: {})
    logging: list[Call] = field(default_factory=lambda: [])  # calls named like logging's
    ruff: dict[str, int] = field(default_factory=lambda: {})
    bandit: dict[str, int] = field(default_factory=lambda: {})
    tool: str = ""  # typing-literalstring's commit when it was measured ("+" if changed)

    @property
    def kloc(self) -> float:
        return self.lines / 1000

    def run(self, checker: str) -> Run | None:
        return next((r for r in self.runs if r.checker == checker), None)

    def distinct(self) -> list[Found]:
        """Every finding of either checker at its place once (a place: file, line number,
        rule and statement text)."""
        seen: dict[Key, Found] = {}
        for run in self.runs:
            for found in run.findings:
                seen.setdefault(found.key, found)
        return sorted(seen.values(), key=lambda f: (f.file, f.number, f.rule))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["project"]
        return data

    @classmethod
    def from_json(cls, project: Project, data: dict[str, Any]) -> ProjectResult:
        runs = [
            Run(
                r["checker"],
                r["seconds"],
                [Found(**f) for f in r["findings"]],
                r["unresolved"],
                r["sink_calls"],
                r["proven_total"],
                [Call(**c) for c in r["proven"]],
                [Call(**c) for c in r["unverified"]],
            )
            for r in data["runs"]
        ]
        return cls(
            project, data["lines"], data["files"], data["failure"], runs, data["failed_runs"],
            [Call(**c) for c in data["logging"]], data["ruff"], data["bandit"],
            data.get("tool", ""),
        )  # fmt: skip
