"""The main job: find every place where a non-literal string reaches an SQL, shell or log sink.

A finding is an error the checker reports with our tightened stubs and not without them, at a
call to one of the sinks: the checker stays the judge of what is literal, and errors that have
nothing to do with the stubs are never findings.  Shells started through argument lists are
judged on an instrumented copy of the files (see ``argv_shell``).
"""

from __future__ import annotations

import ast
import os
import shutil
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from . import argv_shell
from .cache import cached_overlay
from .checkers import Checker, Diagnostic, MypyPlugin, RunResult, enforcing
from .errors import TypingLiteralStringError
from .overlay import UNTIGHTENED
from .sinks import (
    SHELL_ARGV,
    Rule,
    SinkCall,
    find_sink_calls,
    innermost_sink_call,
    parse_file,
    qualified_api,
)


class UsageError(TypingLiteralStringError):
    """The command line names something that is not there."""


# Said when a checker that enforces LiteralString only through our plugin cannot load it.
NOT_ENFORCING = {
    "mypy": "mypy does not enforce LiteralString on its own: it reads it as plain str (mypy "
    "issue 12554), and checking with mypy would find nothing without the typing_literalstring."
    "mypy plugin, which cannot run here: {problem}. Use a supported mypy, or --checker pyright "
    "(or basedpyright, ty, zuban, pyrefly)."
}
# Folders a directory walk never enters when looking for files to instrument.
_SKIPPED_DIRS = {"__pycache__", "node_modules", "site-packages", "venv", "build", "dist"}


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    column: int
    rule: Rule
    api: str  # the stdlib API, e.g. "subprocess.run"
    callee: str  # the callee as written, e.g. "conn.execute"
    source: str  # the offending source line
    messages: tuple[str, ...]  # what the checker said


@dataclass
class CheckResult:
    checker: str
    checker_version: str
    profile: str
    project: Path
    findings: list[Finding] = field(default_factory=lambda: [])
    other: list[Diagnostic] = field(default_factory=lambda: [])  # errors that are not findings
    rebuilt_corrupt_cache: bool = False

    def by_family(self) -> Counter[str]:
        return Counter(f.rule.family for f in self.findings)


def _source_line(path: Path, line: int) -> str:
    try:
        return path.read_text(encoding="utf-8").splitlines()[line - 1].strip()
    except (OSError, IndexError, UnicodeDecodeError):
        return ""


def _errors(result: RunResult) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.severity == "error"]


def _key(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.path, d.line, d.column, d.message)


def new_errors(tightened: RunResult, stock: RunResult) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Errors only the tightened run reports, and the rest of its errors."""
    remaining = Counter(_key(d) for d in _errors(stock))
    new: list[Diagnostic] = []
    old: list[Diagnostic] = []
    for diagnostic in _errors(tightened):
        if remaining[_key(diagnostic)] > 0:
            remaining[_key(diagnostic)] -= 1
            old.append(diagnostic)
        else:
            new.append(diagnostic)
    return new, old


def findings_at_sinks(new: list[Diagnostic]) -> tuple[list[Finding], list[Diagnostic]]:
    """Group the new errors by the sink call they fall in; the rest are not findings."""
    grouped: dict[tuple[str, int, int], list[Diagnostic]] = {}
    calls: dict[tuple[str, int, int], SinkCall] = {}
    unplaced: list[Diagnostic] = []
    parsed: dict[str, list[SinkCall]] = {}
    for diagnostic in new:
        if diagnostic.path not in parsed:
            tree = parse_file(Path(diagnostic.path))
            parsed[diagnostic.path] = find_sink_calls(*tree) if tree else []
        call = innermost_sink_call(parsed[diagnostic.path], diagnostic.line, diagnostic.column)
        if call is None:
            unplaced.append(diagnostic)
            continue
        key = (diagnostic.path, call.line, call.column)
        grouped.setdefault(key, []).append(diagnostic)
        calls[key] = call
    findings: list[Finding] = []
    for (path, line, column), call in sorted(calls.items()):
        messages = tuple(d.message for d in grouped[(path, line, column)])
        findings.append(
            Finding(
                path,
                line,
                column,
                call.rule,
                qualified_api(call, messages),
                call.callee,
                _source_line(Path(path), line),
                messages,
            )
        )
    return findings, unplaced


def python_files(paths: Sequence[Path]) -> list[Path]:
    """The .py files under ``paths`` (hidden folders, caches and environments left out)."""
    files: list[Path] = []
    for path in paths:
        if path.is_file():
            files.append(path)
            continue
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
            files.extend(Path(folder) / n for n in sorted(names) if n.endswith(".py"))
    return files


@dataclass(frozen=True)
class _InstrumentedCopy:
    original: Path
    source: str  # the original's text
    shells: list[argv_shell.ShellInArgv]
    instrumented: argv_shell.Instrumented


def _argv_findings(
    checker: Checker,
    files: Sequence[Path],
    search: list[Path],
    python_version: str | None,
    workdir: Path,
) -> list[Finding]:
    """Judge shells started through argument lists on instrumented copies of the files."""
    copies: dict[str, _InstrumentedCopy] = {}
    for number, path in enumerate(files):
        parsed = parse_file(path)
        shells = argv_shell.find(parsed[0]) if parsed else []
        if parsed is None or not shells:
            continue
        tree, source = parsed
        try:
            relative = path.resolve().relative_to(search[0])
        except ValueError:  # outside the project: keep names apart by their position
            relative = Path("_outside") / str(number) / path.name
        copy = workdir / "instrumented" / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        instrumented = argv_shell.instrument(source, tree, shells)
        copy.write_text(instrumented.source, encoding="utf-8")
        copies[str(copy.resolve())] = _InstrumentedCopy(
            path.resolve(), source, shells, instrumented
        )
    if not copies:
        return []
    probe = workdir / "probe"
    probe.mkdir(parents=True, exist_ok=True)
    (probe / f"{argv_shell.PROBE_MODULE}.pyi").write_text(argv_shell.PROBE_STUB, "utf-8")
    result = checker.run(
        [Path(c) for c in copies],
        python_version=python_version,
        workdir=workdir / "argv-run",
        extra_paths=[probe, *search],
    )
    findings: dict[tuple[str, int], Finding] = {}
    for diagnostic in _errors(result):
        entry = copies.get(diagnostic.path)
        if entry is None or argv_shell.PROBE_FUNCTION not in diagnostic.message:
            continue
        line = entry.instrumented.original_line(diagnostic.line)
        call = next(
            (s.call for s in entry.shells if s.call.lineno <= line <= (s.call.end_lineno or 0)),
            None,
        )
        if call is None:
            continue
        findings[(str(entry.original), call.lineno)] = Finding(
            str(entry.original),
            call.lineno,
            call.col_offset + 1,
            SHELL_ARGV,
            "a shell started through an argument list",
            ast.get_source_segment(entry.source, call.func) or "",
            _source_line(entry.original, call.lineno),
            (diagnostic.message.replace(argv_shell.PROBE_FUNCTION, "<shell script>"),),
        )
    return [findings[key] for key in sorted(findings)]


def run_check(
    checker: Checker,
    paths: Sequence[Path],
    *,
    profile: str = "default",
    python_version: str | None = None,
    cache_dir: Path | None = None,
    project: Path | None = None,
) -> CheckResult:
    """Check ``paths`` with ``checker``; ``project`` (default: here) is on the import path.

    mypy runs with our plugin (``typing_literalstring.mypy``), which makes it enforce PEP 675.
    """
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    if not checker.is_installed():
        checker.executable()  # raises with the install hint
    name = checker.name
    checker = enforcing(checker)
    if isinstance(checker, MypyPlugin):
        problem = checker.plugin_problem()
        if problem is not None:
            raise UsageError(NOT_ENFORCING[name].format(problem=problem))
    root = (project or Path.cwd()).resolve()
    overlay = cached_overlay(checker, profile, cache_dir)
    baseline = cached_overlay(checker, UNTIGHTENED, cache_dir)
    result = CheckResult(checker.name, checker.version(), profile, root)
    result.rebuilt_corrupt_cache = overlay.rebuilt_corrupt or baseline.rebuilt_corrupt
    workdir = Path(tempfile.mkdtemp(prefix="typing-literalstring-"))
    try:
        # Both runs are isolated from the project's own checker configuration: they differ
        # only in the overlay, so any error one has and the other lacks comes from our stubs.
        # (A project configured by `init` would otherwise load the tightened stubs twice.)
        search = [root, *([root / "src"] if (root / "src").is_dir() else [])]

        def run(overlay_root: Path, name: str) -> RunResult:
            return checker.run(
                list(paths),
                python_version=python_version,
                overlay=overlay_root,
                workdir=workdir / name,
                extra_paths=search,
            )

        with ThreadPoolExecutor(max_workers=2) as pool:
            tightened = pool.submit(run, overlay.root, "tightened")
            stock = pool.submit(run, baseline.root, "untightened")
            new, old = new_errors(tightened.result(), stock.result())
        findings, unplaced = findings_at_sinks(new)
        argv = _argv_findings(checker, python_files(paths), search, python_version, workdir)
        result.findings = sorted(findings + argv, key=lambda f: (f.path, f.line, f.column))
        result.other = sorted(old + unplaced)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result
