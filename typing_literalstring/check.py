"""The main job: find every place where a non-literal string reaches a LiteralString.

The checker runs once on the project's files with our tightened stubs wired in, and stays the
judge of what is literal.  Each of its errors is then sorted:

- an error that says a non-literal string reached a LiteralString (the team's own helpers,
  libraries typed with LiteralString such as psycopg 3 or neo4j, declared variables and return
  types) is a finding of rule LS001, naming the callee and its parameter;
- an error at a call to one of the sinks we tighten (sqlite3, subprocess, os, asyncio, logging)
  that the untightened stubs do not give is a finding of that sink's family (LS101, LS201,
  LS301).  Only the files with errors at such calls are checked a second time, with the
  untightened stubs, so the comparison costs little;
- an import the checker could not resolve is counted and said: it makes values Unknown and
  hides sinks;
- anything else is one of the checker's other errors.

Shells started through argument lists are judged on an instrumented copy (see ``argv_shell``).
"""

from __future__ import annotations

import ast
import functools
import os
import re
import shutil
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence, Tuple

from . import (
    argv_shell,
    callees,
    fix_hints,
    grammar,
    own_sinks,
    reveal,
    sources,
    suppressions,
    thirdparty,
    unverified,
    unverified_refusals,
)
from .cache import cached_overlay, incremental_cache
from .checkers import Checker, Diagnostic, Mypy, MypyPlugin, RunResult, enforcing
from .errors import CheckerFailedError, TypingLiteralStringError
from .installed import imported_names
from .literal_errors import (
    callee_in,
    is_about_literal_string,
    is_no_matching_overload,
    is_untyped_module,
    names_a_str_method,
    notes_name_literal_string,
    unresolved_module,
)
from .overlay import UNTIGHTENED, stdlib_modules
from .project import (
    Environment,
    choose_environment,
    common_root,
    module_name,
    python_files,
    search_paths,
)
from .sinks import (
    LOGGING,
    NON_LITERAL,
    SHELL_ARGV,
    SINK_NAMES,
    UNVERIFIED,
    Rule,
    SinkCall,
    callee_name,
    find_sink_calls,
    innermost_sink_call,
    only_unpacked_arguments,
    qualified_api,
    with_one_more_argument,
)
from .statements import Statements
from .suppressions import Malformed, Suppression
from .typeshed_literals import requires_literal_string


class FilesChangedError(TypingLiteralStringError):
    """A checked file changed while the check ran."""


class UsageError(TypingLiteralStringError):
    """The command line names something that is not there."""


# Said when a checker that enforces LiteralString only through our plugin cannot load it.
NOT_ENFORCING = {
    "mypy": "mypy does not enforce LiteralString on its own: it reads it as plain str (mypy "
    "issue 12554), and checking with mypy would find nothing without the typing_literalstring."
    "mypy plugin, which cannot run here: {problem}. Use a supported mypy, or --checker pyright "
    "(or basedpyright, ty, zuban, pyrefly)."
}

Progress = Callable[[str], None]


def _silent(_: str) -> None:
    return None


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

    @property
    def sink(self) -> str:
        """What the baseline records as the sink: the callee as written, else the API."""
        return self.callee or self.api

    @property
    def fix(self) -> str:
        extra = PSYCOPG_FIX if self.uses_psycopg else self.hint
        return f"{self.rule.fix} {extra}" if extra else self.rule.fix


_PSYCOPG = ("psycopg", "psycopg2")
PSYCOPG_FIX = (
    "For dynamic identifiers use psycopg.sql: "
    'sql.SQL("SELECT * FROM {}").format(sql.Identifier(table)).'
)


@dataclass(frozen=True)
class Unparsable:
    path: str
    line: int
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

    def by_family(self) -> Counter[str]:
        return Counter(f.rule.family for f in self.findings)


def _source_line(source: str, line: int) -> str:
    """One line of a file's text, which every caller already holds, counted as the tokenizer
    counts lines (``str.splitlines`` also breaks inside string literals)."""
    lines = sources.lines(source)
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _errors(result: RunResult, files: set[str]) -> list[Diagnostic]:
    """The errors in the checked files (mypy also reports modules it followed)."""
    return [d for d in result.diagnostics if d.severity == "error" and d.path in files]


_Key = Tuple[str, int, int, str]


def _key(d: Diagnostic) -> _Key:
    return (d.path, d.line, d.column, d.message)


def _about_literal_strings(
    run: RunResult, errors: list[Diagnostic], from_stubs: set[_Key], checker: str
) -> set[_Key]:
    """The errors that say, in the checker's own words, that a LiteralString refused a str."""
    notes: dict[tuple[str, int, int], list[Diagnostic]] = {}
    for d in run.diagnostics:
        if d.severity == "note":
            notes.setdefault((d.path, d.line, d.column), []).append(d)
    return {
        _key(d)
        for d in errors
        if _key(d) not in from_stubs
        and (
            is_about_literal_string(d, checker)
            or (
                is_no_matching_overload(d)
                and checker != "mypy+plugin"  # the plugin rewords these itself
                and not names_a_str_method(d)
                and notes_name_literal_string(notes.get((d.path, d.line, d.column), []))
            )
        )
    }


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class _Runs:
    """How every checker run of one `check` is made: same checker, target and environment."""

    checker: Checker
    python_version: str | None
    environment: Environment
    workdir: Path
    platform: str | None = None
    third_party: tuple[Path, ...] = ()  # the tightened third-party packages (thirdparty.py)
    # Where the checker's incremental cache is kept between checks (cache.incremental_cache):
    # the user cache (--cache-dir) and the project root; None: a fresh cache per run.
    incremental: tuple[Path | None, Path] | None = None
    started: list[tuple[str, int]] = field(default_factory=lambda: [])  # shared by replace()

    def run(
        self,
        files: Iterable[str],
        name: str,
        extra_paths: Sequence[Path],
        overlay: Path | None,
        *,
        stock: bool = False,
    ) -> RunResult:
        """One run of the checker; ``stock``: without the tightened third-party packages
        (the comparison run on the untightened stubs)."""
        if not stock:
            extra_paths = [*extra_paths, *self.third_party]
        files = sorted(files)
        self.started.append((name, len(files)))
        kept: Path | None = None
        if self.incremental is not None:
            cache_dir, root = self.incremental
            key = [self.checker.name, self.checker.version(), str(root), name, str(overlay)]
            key += [str(self.environment.python), str(self.python_version), str(self.platform)]
            kept = incremental_cache(cache_dir, *key, *map(str, extra_paths))
        return self.checker.run(
            [Path(f) for f in sorted(files)],
            python_version=self.python_version,
            overlay=overlay,
            workdir=self.workdir / name,
            extra_paths=extra_paths,
            python=self.environment.python,
            platform=self.platform,
            incremental_cache=kept,
        )


# pyright follows "No overloads for "join" match" with why the closest overload refused the
# argument, at the argument: `... cannot be assigned to parameter "iterable" of type
# "Iterable[str]" in function "join"`.
_CLOSEST_REFUSAL = re.compile(
    r'to parameter "\w+" of type "(?P<type>[^"]*)" in function "(?P<f>\w+)"'
)
_NO_OVERLOAD_FOR = re.compile(r'No overloads for "(?P<f>\w+)"')


def _fails_for_another_reason(overload: Diagnostic, errors: list[Diagnostic]) -> bool:
    """Whether the call of a "no overload matches" error also fails an overload that takes any
    str, for a reason that names no LiteralString: then no literal string would make it pass
    (django-debug-toolbar: `":".join([*namespaces, url_name])` with `url_name: str | None`
    fails `Iterable[str]`).  An overload that takes no str (psycopg 3's `Template`) says
    nothing of the others."""
    named = _NO_OVERLOAD_FOR.search(overload.message)
    if named is None:
        return False
    for other in errors:
        if other is overload or other.path != overload.path or other.line != overload.line:
            continue
        refusal = _CLOSEST_REFUSAL.search(other.message)
        if (
            refusal is not None
            and refusal["f"] == named["f"]
            and re.search(r"\bstr\b", refusal["type"])
            and "LiteralString" not in other.message
        ):
            return True
    return False


def _revealed(
    runs: _Runs, unsure: list[Diagnostic], parsed: dict[str, _Parsed], root: Path, stdlib: _Stdlib
) -> set[_Key]:
    """The "no overload matches" errors whose callee's revealed type names LiteralString.

    Builtins and standard-library callees are not asked about: the stock stdlib types no sink
    with LiteralString, and its literal-preserving overloads are never findings (datasette:
    `getattr`, `iter`, `Decimal(...)`)."""
    calls: dict[str, dict[int, ast.Call]] = {}
    for d in unsure:
        entry = parsed[d.path]
        site = entry.sites.at(d.line, d.column)
        if (
            site.call is not None
            and _inside(Path(d.path), root)
            and not callees.from_standard_library(site.call, entry.names, stdlib.modules)
        ):
            calls.setdefault(d.path, {})[id(site.call)] = site.call
    if not calls:
        return set()
    mirror = runs.workdir / "mirror"
    copies = reveal.build_mirror(
        root,
        {
            Path(p): reveal.wrap_callees(parsed[p].source, list(c.values()))
            for p, c in calls.items()
        },
        mirror,
    )
    result = runs.run(copies, "reveal-run", search_paths(mirror), None)
    takes_literal = {
        (str(copies[d.path]), d.line)
        for d in result.diagnostics
        if d.path in copies and d.severity != "error" and "LiteralString" in d.message
    }
    return {_key(d) for d in unsure if (d.path, d.line) in takes_literal}


@dataclass
class _Parsed:
    """One checked file's syntax tree and text, and what we derived from it."""

    tree: ast.Module
    # The text the tree was parsed from: the file's, or its newer grammar rewritten in place
    # (sources.Source.parsable); excerpts come from ``read.text``.
    source: str
    module: str | None
    is_package: bool = False  # an __init__ file: its module is its own package
    path: str = ""  # absolute, as the checker's diagnostics name it
    read: sources.Source | None = None

    @functools.cached_property
    def sites(self) -> callees.Sites:
        return callees.Sites(self.tree)

    @functools.cached_property
    def sink_calls(self) -> list[SinkCall]:
        """Found when first asked for: most files have no error at all."""
        return find_sink_calls(self.sites.calls, self.source, self.names)

    @functools.cached_property
    def names(self) -> dict[str, str]:
        return callees.imported_names(self.tree, self.module, self.is_package)

    @functools.cached_property
    def statements(self) -> Statements:
        return Statements(self.tree, self.source)

    @functools.cached_property
    def constants_declared_str(self) -> frozenset[str]:
        return fix_hints.declared_str(self.tree)

    @functools.cached_property
    def suppressions(self) -> list[Suppression | Malformed]:
        if "typing-literalstring" not in self.source.lower():
            return []  # most files: no need to tokenize
        return suppressions.read(self.path, self.statements.tokens)


def _parse(path: Path, roots: Sequence[Path], host_grammar: bool) -> _Parsed | Unparsable:
    """``path`` read as Python reads it.  ``host_grammar``: the checker parses with the Python
    running us (mypy), so a file in a newer grammar is one it cannot check."""
    try:
        read, tree = sources.read(path)
    except SyntaxError as error:
        message = error.msg
        if not grammar.available() and sys.version_info < (3, 14):
            message += f" (if the project targets a newer Python: {grammar.INSTALL_HINT})"
        return Unparsable(str(path), error.lineno or 1, message)
    except (ValueError, OSError) as error:  # UnicodeDecodeError, a null byte, unreadable
        return Unparsable(str(path), 1, str(error))
    except (RecursionError, MemoryError):  # Python itself cannot compile such a file either
        return Unparsable(str(path), 1, "nested too deeply for Python's parser")
    if read.needs is not None and host_grammar:
        return Unparsable(
            str(path),
            1,
            f"uses the Python {read.needs} grammar, which mypy cannot read: mypy parses with "
            f"the Python that runs it ({sources.host_version()}); run typing-literalstring "
            f"under Python {read.needs} or newer",
        )
    return _Parsed(
        tree,
        read.parsable,
        module_name(path, roots),
        path.stem == "__init__",
        str(path.resolve()),
        read,
    )


def _parse_all(
    paths: list[Path], roots: Sequence[Path], host_grammar: bool = False
) -> tuple[dict[str, _Parsed], list[Unparsable]]:
    parsed: dict[str, _Parsed] = {}
    unparsable: list[Unparsable] = []
    for path in paths:
        entry = _parse(path, roots, host_grammar)
        if isinstance(entry, Unparsable):
            unparsable.append(entry)
        else:
            parsed[str(path.resolve())] = entry
    return parsed, unparsable


def _sink_call_of(parsed: _Parsed, diagnostic: Diagnostic) -> SinkCall | None:
    return innermost_sink_call(parsed.sink_calls, diagnostic.line, diagnostic.column)


def refuse_plugin_failures(checker: Checker, errors: list[Diagnostic], cwd: Path) -> None:
    """A module our mypy plugin could not check has unknown findings: never a pass."""
    failed = [
        d for d in errors if isinstance(checker, MypyPlugin) and d.code == checker.failure_code
    ]
    if failed:
        where = ", ".join(sorted({os.path.relpath(d.path, cwd) for d in failed}))
        raise CheckerFailedError(
            f"{checker.name} could not check {where}: {failed[0].message}; meanwhile check "
            "with another --checker"
        )


def _judge_sink_errors(
    tightened: list[Diagnostic], parsed: dict[str, _Parsed], checker: str
) -> tuple[set[_Key], set[str]]:
    """The errors at sink calls that only our stubs give, and the files still to compare."""
    ambiguous: set[str] = set()
    for entry in parsed.values():
        ambiguous |= own_sinks.literal_string_functions(entry.tree, entry.source)
    at_call: dict[tuple[str, int, int], tuple[SinkCall, list[Diagnostic]]] = {}
    for diagnostic in tightened:
        if not own_sinks.may_be_ours(diagnostic, checker):
            continue  # most errors: no need to find the call they fall in
        call = _sink_call_of(parsed[diagnostic.path], diagnostic)
        if call is not None:
            place = (diagnostic.path, call.line, call.column)
            at_call.setdefault(place, (call, []))[1].append(diagnostic)
    ours: set[_Key] = set()
    unsure: set[str] = set()
    for call, diagnostics in at_call.values():
        called_as = call.called_as
        verdicts = own_sinks.judge_call(diagnostics, called_as, checker, ambiguous)
        for diagnostic, verdict in zip(diagnostics, verdicts):
            if verdict is own_sinks.Verdict.OURS:
                ours.add(_key(diagnostic))
            elif verdict is own_sinks.Verdict.UNSURE:
                unsure.add(diagnostic.path)
    return ours, unsure


# The untightened run checks only some files, so a checker may infer less about code they
# import: pyright says `Unknown | str | None` there where the full run said `str | None`
# (borgmatic 2.1.10).  The same error, so the comparison leaves out what is unknown.
_UNKNOWN = re.compile(r"\bUnknown \| | \| Unknown\b")


def _compared(d: Diagnostic) -> _Key:
    return (d.path, d.line, d.column, _UNKNOWN.sub("", d.message))


def stub_errors(tightened: list[Diagnostic], stock: RunResult, files: set[str]) -> set[_Key]:
    """The errors only the tightened stubs give (a multiset difference on the compared files)."""
    remaining = Counter(_compared(d) for d in _errors(stock, files))
    new: set[_Key] = set()
    for diagnostic in tightened:
        if diagnostic.path not in files:
            continue
        if remaining[_compared(diagnostic)] > 0:
            remaining[_compared(diagnostic)] -= 1
        else:
            new.add(_key(diagnostic))
    return new


def _stub_finding(call: SinkCall, diagnostics: list[Diagnostic], entry: _Parsed) -> Finding:
    messages = tuple(d.message for d in diagnostics)
    return Finding(
        diagnostics[0].path,
        call.line,
        call.column,
        call.rule,
        _third_party_api(call, diagnostics, entry) or qualified_api(call, messages),
        call.callee,
        _source_line(entry.source, call.line),
        messages,
    )


# The class a message names: zuban's `"execute" of "Cursor"`, ty's `Cursor.execute`.
_CLASS_NAMED = re.compile(r'"\w+" of "(\w+)"|`(?:\w+\.)*(\w+)\.\w+`')


def _third_party_api(call: SinkCall, diagnostics: list[Diagnostic], entry: _Parsed) -> str:
    """A third-party sink's name, where the messages tell which one it is; else, when they
    name only the method (zuban's "No overload variant of "execute" of "Cursor""), the
    sinks of that name in the distributions the file imports ("" when none)."""
    called_as = call.called_as
    imported = {qualified.split(".")[0] for qualified in entry.names.values()}
    # Only a package the file imports: sqlite3's and aiosqlite's `execute(sql: LiteralString)`
    # read alike (beets 2.14.1 was told aiosqlite).
    named = {
        t.api
        for d in diagnostics
        for t in own_sinks.matching(d, called_as)
        if t.distribution and t.module.split(".")[0] in imported
    }
    if not named and not any(own_sinks.matching(d, called_as) for d in diagnostics):
        classes = {c for d in diagnostics for m in _CLASS_NAMED.findall(d.message) for c in m if c}
        named = {
            t.api
            for t in own_sinks.tightened_parameters()
            if t.distribution
            and t.called_as == called_as
            and t.module.split(".")[0] in imported
            and (not classes or t.owner in classes)
            and "sqlite3" not in imported
        }
    return " or ".join(sorted(named))


def _literal_finding(parsed: _Parsed, diagnostics: list[Diagnostic]) -> Finding:
    """An LS001 finding: the checker's own LiteralString error, with the callee named."""
    first = diagnostics[0]
    messages = tuple(d.message for d in diagnostics)
    named = callee_in(messages)
    site = parsed.sites.at(first.line, first.column, _callee_hint(diagnostics))
    callee = ""
    api = ""
    line, column = first.line, first.column
    if site.call is not None:
        callee = ast.get_source_segment(parsed.source, site.call.func) or ""
        api = callees.qualify(site.call, named, parsed.names, parsed.source)
        line, column = site.call.lineno, site.call.col_offset + 1
    elif named is not None and named.function:
        api = named.function
    if not api:
        function = site.function.name if site.function else ""
        if site.kind == "return" and function:
            owner = f"{parsed.module}." if parsed.module else ""
            api = f"the return value of {owner}{function}"
        else:
            api = "a variable, attribute or item declared LiteralString"
    return Finding(
        first.path,
        line,
        column,
        NON_LITERAL,
        api,
        callee,
        _source_line(parsed.source, line),
        messages,
        named.parameter if named is not None else "",
        any(q.split(".")[0] in _PSYCOPG for q in (api, *parsed.names.values())),
    )


@dataclass(frozen=True)
class _InstrumentedCopy:
    original: Path
    source: str  # the original's text
    shells: list[argv_shell.ShellInArgv]
    unpacked: list[ast.Call]  # logging calls whose formatting arguments are all `*args`
    instrumented: argv_shell.Instrumented


def _probed_copy(source: str, tree: ast.Module) -> _InstrumentedCopy | None:
    """The copy that ``check`` judges what no signature says on: shells started through
    argument lists (the probe around each script) and logging calls with only ``*args``."""
    unpacked = [c for c in callees.Sites(tree).calls if only_unpacked_arguments(c) is not None]
    shells = argv_shell.find(tree, source)
    if not shells and not unpacked:
        return None
    text = with_one_more_argument(source, unpacked)
    if shells:
        copied = ast.parse(text)
        instrumented = argv_shell.instrument(text, copied, argv_shell.find(copied, text))
    else:
        instrumented = argv_shell.Instrumented(text, inserted_line=len(sources.lines(text)) + 1)
    return _InstrumentedCopy(Path(), source, shells, unpacked, instrumented)


def _probe_stub(runs: _Runs) -> Path:
    """The folder holding the stub of the LS202 probe (``argv_shell.PROBE_STUB``)."""
    probe = runs.workdir / "probe"
    probe.mkdir(parents=True, exist_ok=True)
    (probe / f"{argv_shell.PROBE_MODULE}.pyi").write_text(argv_shell.PROBE_STUB, "utf-8")
    return probe


def _probed_findings(
    runs: _Runs, parsed: dict[str, _Parsed], search: list[Path], overlay: Path
) -> list[Finding]:
    """Judge, on instrumented copies of the files, shells started through argument lists
    (LS202) and logging calls whose formatting arguments are all ``*args`` (LS301)."""
    copies: dict[str, _InstrumentedCopy] = {}
    for number, (name, entry) in enumerate(sorted(parsed.items())):
        probed = _probed_copy(entry.source, entry.tree)
        if probed is None:
            continue
        path = Path(name)
        try:
            relative = path.relative_to(search[0])
        except ValueError:  # outside the project: keep names apart by their position
            relative = Path("_outside") / str(number) / path.name
        copy = runs.workdir / "instrumented" / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(probed.instrumented.source, encoding="utf-8")
        copies[str(copy.resolve())] = replace(probed, original=path)
    if not copies:
        return []
    result = runs.run(copies, "argv-run", [_probe_stub(runs), *search], overlay)
    findings: dict[tuple[str, int], Finding] = {}
    for diagnostic in _errors(result, set(copies)):
        copied = copies[diagnostic.path]
        line = copied.instrumented.original_line(diagnostic.line)
        if argv_shell.PROBE_FUNCTION in diagnostic.message:
            for finding in _shell_findings(copied, line, diagnostic):
                findings[(finding.path, finding.line)] = finding
        elif is_about_literal_string(diagnostic, runs.checker.name) or (
            # zuban says only that no overload takes `(str, *list[int], int)`.
            is_no_matching_overload(diagnostic)
        ):
            for call in copied.unpacked:
                if call.lineno <= line <= (call.end_lineno or call.lineno):
                    finding = _unpacked_logging_finding(copied, call, diagnostic)
                    findings[(finding.path, finding.line)] = finding
    return [findings[key] for key in sorted(findings)]


def _shell_findings(
    copied: _InstrumentedCopy, line: int, diagnostic: Diagnostic
) -> Iterator[Finding]:
    # The probe wraps the script, which may be added to the list lines before the call.
    for shell in copied.shells:
        script, call = shell.script, shell.call
        if not script.lineno <= line <= (script.end_lineno or script.lineno):
            continue
        inside = call.lineno <= script.lineno <= (call.end_lineno or call.lineno)
        yield Finding(
            str(copied.original),
            call.lineno,
            call.col_offset + 1,
            SHELL_ARGV,
            "a shell started through an argument list"
            + ("" if inside else f" (its script is added on line {script.lineno})"),
            ast.get_source_segment(copied.source, call.func) or "",
            _source_line(copied.source, call.lineno),
            (diagnostic.message.replace(argv_shell.PROBE_FUNCTION, "<shell script>"),),
        )


def _unpacked_logging_finding(
    copied: _InstrumentedCopy, call: ast.Call, diagnostic: Diagnostic
) -> Finding:
    name = callee_name(call.func) or ""
    return Finding(
        str(copied.original),
        call.lineno,
        call.col_offset + 1,
        LOGGING,
        f"{SINK_NAMES[name][1]}, formatting arguments passed as *args",
        ast.get_source_segment(copied.source, call.func) or "",
        _source_line(copied.source, call.lineno),
        (diagnostic.message,),
    )


def _unverified_findings(
    runs: _Runs,
    parsed: dict[str, _Parsed],
    root: Path,
    tightened: list[Diagnostic],
    overlay: Path,
    reported: Sequence[Finding],
) -> list[Finding]:
    """``--report-any``: the parts of type Any that reach a LiteralString (see ``unverified``);
    a call with a finding already (``reported``) is not reported again."""
    already: dict[str, set[int]] = {}
    for finding in reported:
        call = parsed[finding.path].sites.at(finding.line, finding.column).call
        if call is not None:
            already.setdefault(finding.path, set()).add(id(call))
    analysed: dict[str, unverified.Instrumented] = {}
    for name, entry in sorted(parsed.items()):
        if _inside(Path(name), root):
            found = unverified.analyse(entry.source, entry.tree)
            if found.nodes:
                analysed[name] = found
    if not analysed:
        return []
    # 1. Reveal every part, and what tells where an Any comes from.
    mirror = runs.workdir / "any-reveal"
    texts = {Path(n): unverified.reveal_copy(found, n) for n, found in analysed.items()}
    copies = reveal.build_mirror(root, texts, mirror)
    result = runs.run(copies, "any-reveal-run", search_paths(mirror), overlay)
    notes: dict[str, list[str]] = {}
    for d in result.diagnostics:
        if d.path in copies and d.severity != "error":
            notes.setdefault(str(copies[d.path]), []).append(d.message)
    substituted: dict[str, unverified_refusals.Substituted] = {}
    for name, found in analysed.items():
        found.types = unverified.revealed_types(notes.get(name, []))
        copy = unverified_refusals.substitute_copy(found, name)
        if copy.parts:
            substituted[name] = copy
    if not substituted:
        return []
    # 2. Make each Any part plain str: a call refused only now takes it as LiteralString.
    mirror = runs.workdir / "any-substitute"
    texts = {Path(name): copy.source for name, copy in substituted.items()}
    copies = reveal.build_mirror(root, texts, mirror)
    search = [_probe_stub(runs), *search_paths(mirror)]
    result = runs.run(copies, "any-substitute-run", search, overlay)
    refused_before = _refused_calls(tightened, parsed, runs.checker.name)
    errors: dict[str, list[tuple[Diagnostic, str | None]]] = {}
    for d in result.diagnostics:
        if d.path in copies and d.severity == "error":
            errors.setdefault(str(copies[d.path]), []).append((d, _callee_hint([d])))
    findings: list[Finding] = []
    for name, found_errors in sorted(errors.items()):
        entry, copy, found = parsed[name], substituted[name], analysed[name]
        refusals = unverified_refusals.refusals(
            copy,
            entry.tree,
            entry.source,
            found_errors,
            checker=runs.checker.name,
            sink_calls=entry.sink_calls,
            refused_before=refused_before.get(name, set()) | already.get(name, set()),
        )
        for refusal in refusals:
            parts = unverified_refusals.reported_parts(copy, found, refusal)
            if parts:
                findings.append(
                    _unverified_finding(entry, refusal.call, found.explain(parts), refusal.errors)
                )
    return findings


def _unverified_finding(
    entry: _Parsed, call: ast.Call, explained: str, errors: list[Diagnostic]
) -> Finding:
    sink = next(
        (c for c in entry.sink_calls if (c.line, c.column) == (call.lineno, call.col_offset + 1)),
        None,
    )
    messages = tuple(d.message for d in errors)
    api = (
        sink.api
        if sink is not None
        else callees.qualify(call, callee_in(messages), entry.names, entry.source)
    )
    return Finding(
        entry.path,
        call.lineno,
        call.col_offset + 1,
        UNVERIFIED,
        api,
        ast.get_source_segment(entry.source, call.func) or "",
        _source_line(entry.source, call.lineno),
        (explained, *messages),
    )


def _refused_calls(
    errors: list[Diagnostic], parsed: dict[str, _Parsed], checker: str
) -> dict[str, set[int]]:
    """The calls that the tightened run already refused a string at, by file: id(call)."""
    out: dict[str, set[int]] = {}
    for d in errors:
        if is_about_literal_string(d, checker) or is_no_matching_overload(d):
            call = parsed[d.path].sites.at(d.line, d.column, _callee_hint([d])).call
            if call is not None:
                out.setdefault(d.path, set()).add(id(call))
    return out


def _check_arguments(
    checker: Checker, paths: Sequence[Path], python_version: str | None
) -> Checker:
    """Refuse what cannot be checked before anything runs; the checker as `check` runs it."""
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    if not checker.is_installed():
        checker.executable()  # raises with the install hint
    if python_version is not None and not checker.supports_target(python_version):
        oldest, newest = (
            ".".join(map(str, t)) for t in (checker.oldest_target, checker.newest_target)
        )
        raise UsageError(
            f"{checker.name} checks Python {oldest} to {newest}, not {python_version}: "
            f"choose a --python-version in that range, or another --checker"
        )
    name = checker.name
    checker = enforcing(checker)
    if isinstance(checker, MypyPlugin):
        problem = checker.plugin_problem()
        if problem is not None:
            raise UsageError(NOT_ENFORCING[name].format(problem=problem))
    return checker


def run_check(
    checker: Checker,
    paths: Sequence[Path],
    *,
    profile: str = "default",
    python_version: str | None = None,
    cache_dir: Path | None = None,
    python: str | None = None,
    cwd: Path | None = None,
    progress: Progress = _silent,
    report_any: bool = False,
    platform: str | None = None,
) -> CheckResult:
    """Check ``paths`` (none: the project root) with ``checker`` and our tightened stubs.

    The project root is found from the first path (or ``cwd``) upwards; its modules resolve from
    the root (and ``src/``), third-party ones from ``python`` (see ``choose_environment``).
    mypy runs with our plugin (``typing_literalstring.mypy``), which makes it enforce PEP 675.
    """
    cwd = (cwd or Path.cwd()).resolve()
    checker = _check_arguments(checker, paths, python_version)
    root = common_root(paths, cwd)
    targets = list(paths) or [root]
    environment = choose_environment(python, root)
    search = search_paths(root)
    result = CheckResult(checker.name, checker.version(), profile, root, cwd, environment)
    found: dict[str, Path] = {}
    for path in python_files(targets):
        refused = sources.not_read(path, root)
        if refused is None:
            found[str(path.resolve())] = path
        else:
            result.unparsable.append(Unparsable(str(path), 1, refused))
    if not found and not result.unparsable:
        raise UsageError(f"no Python file to check in {', '.join(map(str, targets))}")
    for path, refusal in checker.unnameable([Path(p) for p in found], search).items():
        del found[str(path)]
        result.unchecked.append(Unchecked(str(path), str(refusal.folder), refusal.module))
    progress(f"preparing the tightened stubs for {checker.name}")
    overlay = cached_overlay(checker, profile, cache_dir)
    result.rebuilt_corrupt_cache = overlay.rebuilt_corrupt
    workdir = Path(tempfile.mkdtemp(prefix="typing-literalstring-"))
    runs = _Runs(checker, python_version, environment, workdir, platform, (), (cache_dir, root))
    result.checker_runs = runs.started
    base = checker.overlay_base()
    stdlib = _Stdlib(base, stdlib_modules(base))
    try:
        progress("tightening the third-party packages installed in the checked environment")
        imports = imported_names(Path(p) for p in found)
        result.third_party = thirdparty.build(environment.python, profile, cache_dir, imports)
        runs = replace(runs, third_party=tuple(c.root for c in result.third_party if c.root))
        # Parsing every file costs about as much as a fast checker's run.  Where a syntax
        # error does not stop the checker, the files are parsed while it runs (it waits in
        # another process); elsewhere the files that do not parse are left out of its run.
        before = sources.digests(found.values())
        with ThreadPoolExecutor(max_workers=1) as pool:
            parsing = pool.submit(
                _parse_all, list(found.values()), search, isinstance(checker, Mypy)
            )
            if not checker.checks_past_syntax_errors:
                files = set(parsing.result()[0])
            else:
                files = set(found)
            run: RunResult | None = None
            if files:
                progress(f"running {checker.name} on {len(files)} files")
                run = runs.run(files, "tightened", search, overlay.root)
            parsed, unparsable = parsing.result()
            result.unparsable += unparsable
        result.files = len(parsed)
        if run is None or not parsed:
            return result
        files = set(parsed)
        tightened = _errors(run, files)
        refuse_plugin_failures(checker, tightened, cwd)
        # Errors at calls to our sinks may come from our stubs.  Most say so themselves; the
        # files with one that does not are compared with a run on the untightened stubs.
        from_stubs, at_sinks = _judge_sink_errors(tightened, parsed, checker.name)
        if at_sinks:
            progress(f"comparing {len(at_sinks)} files with the untightened stubs")
            stock_overlay = cached_overlay(checker, UNTIGHTENED, cache_dir)
            result.rebuilt_corrupt_cache |= stock_overlay.rebuilt_corrupt
            stock = runs.run(at_sinks, "untightened", search, stock_overlay.root, stock=True)
            from_stubs |= stub_errors(tightened, stock, at_sinks)
        about = _about_literal_strings(run, tightened, from_stubs, checker.name)
        unsure = [
            d
            for d in tightened
            if is_no_matching_overload(d)
            and _key(d) not in about
            and _key(d) not in from_stubs
            and not names_a_str_method(d)
            and not _fails_for_another_reason(d, tightened)
        ]
        if unsure and checker.reveals_overload_callees:
            progress(
                f"asking {checker.name} which of {len(unsure)} overloaded callees take "
                "LiteralString"
            )
            about |= _revealed(runs, unsure, parsed, root, stdlib)
        result.findings = _classify(tightened, from_stubs, about, parsed, result, stdlib)
        progress("checking shells in argument lists and logging calls with *args")
        argv = _probed_findings(runs, parsed, search, overlay.root)
        # The strict profile asks for a literal message anyway: the tightened run found those.
        seen = {(f.path, f.line, f.column, f.rule.id) for f in result.findings}
        argv = [f for f in argv if (f.path, f.line, f.column, f.rule.id) not in seen]
        result.findings = _sort(result.findings + argv)
        if report_any:
            progress(f"asking {checker.name} which values of type Any reach a LiteralString")
            unverified_ = _unverified_findings(
                runs, parsed, root, tightened, overlay.root, result.findings
            )
            result.findings = _sort(result.findings + unverified_)
        result.paths = sorted(parsed)
        _finish_findings(result, parsed)
        _refuse_changed_files(before, parsed)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def _string_argument(entry: _Parsed, finding: Finding) -> ast.expr | None:
    """The argument that carries the string a finding is about: the one its parameter names,
    else the first."""
    call = entry.sites.at(finding.line, finding.column).call
    if call is None:
        return None
    for keyword in call.keywords:
        if keyword.arg and keyword.arg == finding.parameter:
            return keyword.value
    return call.args[0] if call.args else None


def _refuse_changed_files(before: dict[Path, str], parsed: dict[str, _Parsed]) -> None:
    """A file rewritten while the checker ran may have been checked in another version than
    the one we read: its findings could name lines that are not there.  Never mix the two.
    ``before``: each file's digest taken before the checker started; the checker read the
    file after that and before now, we read it in between, so three equal digests mean one
    version (short of a change made and undone within the run)."""
    now = sources.digests(before)
    read = {e.read.path: e.read.digest for e in parsed.values() if e.read is not None}
    moved = [p for p in before if now[p] != before[p] or read.get(p, before[p]) != before[p]]
    if moved:
        shown = ", ".join(str(p) for p in moved[:5]) + (" ..." if len(moved) > 5 else "")
        raise FilesChangedError(
            f"{len(moved)} file(s) changed while they were being checked ({shown}): the "
            "checker and the analysis may have read different versions. Run check again when "
            "nothing is writing to the project (an editor saving, a formatter, a build)"
        )


def _finish_findings(result: CheckResult, parsed: dict[str, _Parsed]) -> None:
    """Fingerprint each finding and say which fix applies, and set apart those a suppression
    comment names."""
    used: set[Suppression] = set()
    kept: list[Finding] = []
    for finding in result.findings:
        entry = parsed[finding.path]
        fingerprinted = replace(
            finding,
            # What the user wrote, even where its newer grammar was rewritten for our parser.
            source=_source_line(entry.read.text, finding.line) if entry.read else finding.source,
            fingerprint=entry.statements.fingerprint(finding.line, finding.rule.id, finding.sink),
            hint=fix_hints.hint(
                finding.rule, _string_argument(entry, finding), entry.constants_declared_str
            ),
        )
        span = entry.statements.span(finding.line)
        matching = [
            s
            for s in entry.suppressions
            if isinstance(s, Suppression) and s.line in span and finding.rule.id in s.codes
        ]
        if matching:
            used.add(matching[0])
            result.suppressed.append((fingerprinted, matching[0]))
        else:
            kept.append(fingerprinted)
    result.findings = kept
    for entry in parsed.values():
        for comment in entry.suppressions:
            if isinstance(comment, Malformed):
                result.malformed_suppressions.append(comment)
            elif comment not in used:
                result.unused_suppressions.append(comment)


@dataclass(frozen=True)
class _Stdlib:
    """The checker's typeshed, and the standard library's top-level modules as it lists them."""

    typeshed: Path
    modules: frozenset[str]


def _sort(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.path, f.line, f.column, f.rule.id))


def _callee_hint(diagnostics: Sequence[Diagnostic]) -> str | None:
    """For ``Sites.at``: the function the messages name; "" when they are about an assignment
    or a return (no function named, no "no overload matches"); None when unknown."""
    named = callee_in(tuple(d.message for d in diagnostics))
    if named is not None and named.function:
        return named.function
    return None if any(is_no_matching_overload(d) for d in diagnostics) else ""


def _place(entry: _Parsed, diagnostic: Diagnostic) -> tuple[str, int, int]:
    """Where an error falls: the call it is about, else its own position."""
    site = entry.sites.at(diagnostic.line, diagnostic.column, _callee_hint([diagnostic]))
    if site.call is not None:
        return (diagnostic.path, site.call.lineno, site.call.col_offset)
    return (diagnostic.path, diagnostic.line, diagnostic.column)


def _classify(
    errors: list[Diagnostic],
    from_stubs: set[_Key],
    about: set[_Key],
    parsed: dict[str, _Parsed],
    result: CheckResult,
    stdlib: _Stdlib,
) -> list[Finding]:
    """Sort the tightened run's errors into findings, unresolved imports and other errors."""
    at_stub_sink: dict[tuple[str, int, int], tuple[SinkCall, list[Diagnostic]]] = {}
    literal: dict[tuple[str, int, int], list[Diagnostic]] = {}
    rest: list[Diagnostic] = []
    unresolved: dict[str, None] = {}
    for diagnostic in errors:
        entry = parsed[diagnostic.path]
        module = unresolved_module(diagnostic)
        if module is not None:
            unresolved[module] = None
            result.unresolved_errors += 1
            if is_untyped_module(diagnostic) and module not in result.untyped:
                result.untyped.append(module)
            continue
        call = _sink_call_of(entry, diagnostic) if _key(diagnostic) in from_stubs else None
        if call is not None:
            key = (diagnostic.path, call.line, call.column)
            at_stub_sink.setdefault(key, (call, []))[1].append(diagnostic)
        elif _key(diagnostic) in about:
            literal.setdefault(_place(entry, diagnostic), []).append(diagnostic)
        else:
            rest.append(diagnostic)
    grouped = {path for path, _, _ in literal}
    for diagnostic in rest:
        # pyright follows "no overloads match" with the last overload's complaint about the
        # same argument: part of the same finding.
        group = (
            literal.get(_place(parsed[diagnostic.path], diagnostic))
            if diagnostic.path in grouped
            else None
        )
        if group is not None and any(is_no_matching_overload(d) for d in group):
            group.append(diagnostic)
        else:
            result.other.append(diagnostic)
    result.unresolved = list(unresolved)
    findings = [
        _stub_finding(call, group, parsed[group[0].path]) for call, group in at_stub_sink.values()
    ]
    # A call the stubs already made a sink finding of is not reported twice.
    stub_calls = {(f.path, f.line, f.column) for f in findings}
    for group in literal.values():
        finding = _literal_finding(parsed[group[0].path], group)
        if finding.api.split(".")[0] in stdlib.modules and not requires_literal_string(
            stdlib.typeshed, finding.api
        ):
            # typeshed's literal-preserving overloads (os.path.join, str methods) take any str in
            # another overload: an error there is about something else, such as None or bytes
            # (borgmatic: `os.path.join(state_directory, ...)` with `str | None`).
            result.other.extend(group)
        elif (finding.path, finding.line, finding.column) not in stub_calls:
            findings.append(finding)
    result.other.sort()
    return findings
