"""The hostile-checkout run's vocabulary: what it plants, the steps it runs, where a written
file belongs, and what each step found."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Tuple

TOOL = "typing-literalstring"
SHADOWED_BY_TYPING = 'typing.py: This file shadows library module "typing"'
STATE = ".typing-literalstring"  # the folder `init` writes in the project root

# Raw bytes in a command's output that a terminal would act on.
CONTROL_BYTES = {
    "ESC": b"\x1b",
    "BEL": b"\x07",
    "U+2028": "\u2028".encode(),
    "U+2029": "\u2029".encode(),
}

# Non-failing categories; everything else in OTHER_* fails.
PROJECT = "PROJECT"
USER_CACHE = "USER_CACHE"
CHECKER_CACHE = "CHECKER_CACHE"
TOOL_BYTECODE = "TOOL_BYTECODE"
ANCESTOR = "ANCESTOR"
TMPROOT = "TMPROOT"
HARNESS = "HARNESS"
MARKER = "MARKER"
OUTSIDE_TARGET = "OTHER_SYMLINK_TARGET"
ELSEWHERE = "OTHER_CWD_OUTSIDE"
OTHER = "OTHER"
FAILING = (MARKER, OUTSIDE_TARGET, ELSEWHERE, OTHER)
CATEGORY_ORDER = (
    PROJECT,
    USER_CACHE,
    CHECKER_CACHE,
    TOOL_BYTECODE,
    ANCESTOR,
    TMPROOT,
    HARNESS,
    MARKER,
    OUTSIDE_TARGET,
    ELSEWHERE,
    OTHER,
)

# Caches the checkers keep for themselves, relative to the user cache base ($XDG_CACHE_HOME or

FileState = Tuple[int, int, int]  # st_mode, st_mtime_ns, st_size (lstat)


@dataclass(frozen=True)
class Injection:
    file: str  # relative to the project root
    line: int  # the line of the sink call
    what: str


@dataclass(frozen=True)
class Layout:
    run: Path  # the temporary folder holding all of the below
    project: Path  # the hostile copy
    markers: Path  # where hostile code would leave its trace
    harness: Path  # logs, strace output, the timestamp markers
    outside: Path  # the target of the hostile .typing-literalstring symlink
    elsewhere: Path  # an empty folder outside the project, the cwd of `check <abs path>`


@dataclass
class Step:
    name: str
    args: list[str]
    cwd: Path
    expect: set[int]
    counts_findings: bool = False
    must_not_write_project: bool = False
    before: Callable[[], None] | None = None
    # What the output must say: a refusal expected of the command (exit 2) is right only
    # when it names its cause.
    must_say: str = ""
    # Judges the output (stdout, stderr): each line it returns is a failure of the step.
    verify: Callable[[bytes, bytes], list[str]] | None = None
    # Runs once the step is judged: undoes what ``before`` planted for this step alone.
    after: Callable[[], None] | None = None


@dataclass
class Areas:
    project: Path
    user_cache: Path
    checker_caches: list[Path]
    tool_dirs: list[Path]  # the tool's venv and package folder: their __pycache__ is bytecode
    tmp_roots: list[Path]
    layout: Layout


@dataclass
class StepResult:
    step: Step
    exit_code: int
    elapsed: float
    stdout: bytes
    stderr: bytes
    findings: int | None
    listing: dict[str, list[str]]  # category -> paths newer than the marker
    attributed_other: list[str]  # failing paths the command's processes wrote
    concurrent_other: list[str]  # OTHER paths nobody of ours wrote
    transient: list[str]  # written by the command outside the allowed areas, gone after it
    markers: list[str]
    mode_changes: list[str]
    deleted: list[str]
    modified: list[str]  # pre-existing project files whose content or mtime changed
    created: list[str]  # new project files
    injections: list[str]  # one line per expected injection: found where, or missed
    control: list[str]  # raw control bytes found in the output
    warnings: list[str]
    failures: list[str]
