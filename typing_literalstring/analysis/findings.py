"""What a check finds and says: findings, the files it could not read or check, and the
result of one check."""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from typing_literalstring.analysis.suppressions import Malformed, Suppression
from typing_literalstring.analysis.wrapper_calls import Wrapper
from typing_literalstring.checkers import (
    Diagnostic,
)
from typing_literalstring.core import sources
from typing_literalstring.core.project import (
    Environment,
)
from typing_literalstring.core.project_files import Skipped
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.sinks import (
    Rule,
)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    column: int
    rule: Rule
    api: str  # what receives the string: "subprocess.run", "myapp.reports.run_report"
    callee: str  # the callee as written, e.g. "conn.execute"; "" for assignments and returns
    source: str  # the offending source line
    messages: tuple[str, ...]  # what the checker said
    parameter: str = ""  # the LiteralString parameter, when the checker names it
    uses_psycopg: bool = False  # the file imports psycopg: point to its safe composition
    fingerprint: str = ""  # of its rule, sink and statement (statements.py): the baseline key
    hint: str = ""  # the helper or annotation that fixes this one (fix_hints.py)
    # The project's own functions the text passes through to the sink (analysis/wrappers.py):
    # "count(table)", "run_sql(sql)", "conn.execute".
    through: tuple[str, ...] = ()
    # Where the call (or expression) ends, when whoever makes the finding knows it; 0: the
    # output reads it from the file (report/regions.py).  The column is the one after the end.
    end_line: int = 0
    end_column: int = 0
    # What the checker's answers about the call were, when they made the finding (the judge
    # said the text is a plain string: sink_outcomes.py): "`query` is str, not a literal
    # string: built from `user_id` (str)".
    evidence: str = ""

    @property
    def sink(self) -> str:
        """What the baseline records as the sink: the callee as written, else the API."""
        return self.callee or self.api

    @property
    def fix(self) -> str:
        extra = PSYCOPG_FIX if self.uses_psycopg else self.hint
        return f"{self.rule.fix} {extra}" if extra else self.rule.fix


PSYCOPG = ("psycopg", "psycopg2")


PSYCOPG_FIX = (
    "For dynamic identifiers use psycopg.sql: "
    'sql.SQL("SELECT * FROM {}").format(sql.Identifier(table)).'
)


@dataclass(frozen=True)
class Unverified:
    """A sink call the checker let through without judging its text (sink_outcomes.py)."""

    path: str
    line: int
    column: int
    callee: str  # as written
    api: str
    reason: str  # a key of UNVERIFIED_REASONS
    detail: str  # what the checker revealed


UNVERIFIED_REASONS = {
    "value-any": "its text is Any",
    "receiver-unknown": "its receiver's type is unknown",
    "callee-str": "the callee takes str",
    "not-evaluated": "the checker did not evaluate the code",
    "not-asked": "the call could not be asked about",
    "not-in-view": "its text is unpacked from *args or **kwargs",
    "shell-mapping": "its command is not proven literal, and a **mapping may turn on the shell",
    "inexact": "the checker's answer could not be read exactly",
    "checker-ignore": "the checker's own ignore comment hides its answer",
}


@dataclass(frozen=True)
class Unparsable:
    path: str
    line: int  # 0: a folder that could not be listed, so no file below it was read
    message: str


@dataclass(frozen=True)
class Unchecked:
    """A file the checker refuses to take, and the folder that makes it refuse."""

    path: str
    folder: str
    module: str = ""  # the module name it would take from another file


@dataclass
class CheckResult:
    checker: str
    checker_version: str
    profile: str
    project: Path  # the project root
    cwd: Path = field(default_factory=Path.cwd)  # where the user stands: paths are shown from it
    environment: Environment | None = None
    files: int = 0  # how many files were checked
    findings: list[Finding] = field(default_factory=lambda: [])
    other: list[Diagnostic] = field(default_factory=lambda: [])  # errors that are not findings
    unresolved: list[str] = field(default_factory=lambda: [])  # modules that did not resolve
    # Of those, the ones installed without types (mypy's "Skipping analyzing"): values are Any.
    untyped: list[str] = field(default_factory=lambda: [])
    # The third-party packages we have specifications for, covered or not (thirdparty.py).
    third_party: list[thirdparty.Coverage] = field(default_factory=lambda: [])
    unresolved_errors: int = 0
    unparsable: list[Unparsable] = field(default_factory=lambda: [])
    unchecked: list[Unchecked] = field(default_factory=lambda: [])  # refused by the checker
    rebuilt_corrupt_cache: bool = False
    paths: list[str] = field(default_factory=lambda: [])  # the files checked
    # Silenced by a `# typing-literalstring: ignore[...]` comment, with the comment.
    suppressed: list[tuple[Finding, Suppression]] = field(default_factory=lambda: [])
    unused_suppressions: list[Suppression] = field(default_factory=lambda: [])
    malformed_suppressions: list[Malformed] = field(default_factory=lambda: [])
    # The baseline in use (baseline.py), the findings it holds, and its entries for the checked
    # files that matched nothing.
    baseline: Path | None = None
    baselined: list[Finding] = field(default_factory=lambda: [])
    stale_baseline_entries: int = 0
    # The checker runs this check started, in order: (what for, how many files).  One is the
    # goal; each comparison or probe adds one (--verbose lists them).
    checker_runs: list[tuple[str, int]] = field(default_factory=lambda: [])
    checker_seconds: list[float] = field(default_factory=lambda: [])  # each run's wall time
    # Every SQL, shell, template and markup call with a text to judge (sink_outcomes.py):
    # proven literal by the checker, with a finding, or unverified.
    sink_calls: int = 0
    proven: int = 0
    unverified: list[Unverified] = field(default_factory=lambda: [])
    # What was left out, said so that nothing is left out without a word: the folders skipped
    # by name (core/project_files.py), what the configuration's exclude left out, the findings
    # the selection hid (what hid them -> how many) and, when it can report nothing, why
    # (report/selection.py).
    skipped_folders: list[Skipped] = field(default_factory=lambda: [])
    excluded_files: int = 0
    excluded_folders: int = 0
    hidden: dict[str, int] = field(default_factory=lambda: {})
    reports_nothing: str = ""
    # The project's wrappers its sink calls reach through (wrapper_calls.py), for the places of
    # each finding's chain (report/chains.py); None: not known, found again from the files.
    wrappers: tuple[Wrapper, ...] | None = None

    def by_family(self) -> Counter[str]:
        return Counter(f.rule.family for f in self.findings)


def source_line(source: str, line: int) -> str:
    """One line of a file's text, which every caller already holds, counted as the tokenizer
    counts lines (``str.splitlines`` also breaks inside string literals)."""
    lines = _lines(source)
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


@functools.lru_cache(maxsize=8)
def _lines(source: str) -> tuple[str, ...]:
    """A file's lines, split once for all its findings (a string keeps its hash, so asking
    again for the same text costs nothing; splitting a 4,000-line file per finding did)."""
    return tuple(sources.lines(source))


def sorted_findings(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.path, f.line, f.column, f.rule.id))
