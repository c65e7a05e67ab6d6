"""``typing-literalstring check``: every place where a non-literal string reaches a LiteralString.

The pipeline, one step per module, in the order this orchestrator runs them:

1. the files are read as Python reads them (``analysis.parsed``), while the checker runs once on
   them with our tightened stubs wired in (``specs.cache``, ``specs.thirdparty``,
   ``analysis.runs``); the checker stays the judge of what is literal;
2. its errors that our stubs caused at a sink, or that say a LiteralString refused a str, are
   told apart from the rest (``analysis.stub_errors``);
3. every error becomes a finding, an unresolved import or one of the checker's other errors
   (``analysis.classify``);
4. what no signature says is asked on instrumented copies: shells in argument lists, logging
   calls with only ``*args`` (``analysis.probes``), and with ``--report-any`` values of type Any
   (``analysis.report_any``);
5. findings are fingerprinted, given their fix and matched with suppression comments
   (``analysis.classify.finish_findings``); ``report`` shows them.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from typing_literalstring.analysis import probes
from typing_literalstring.analysis.classify import Stdlib, classify, finish_findings
from typing_literalstring.analysis.findings import (
    CheckResult,
    Unchecked,
    Unparsable,
    sorted_findings,
)
from typing_literalstring.analysis.literal_errors import (
    is_no_matching_overload,
    names_a_str_method,
    names_an_operator,
)
from typing_literalstring.analysis.parsed import Parsed, parse_all
from typing_literalstring.analysis.report_any import unverified_findings
from typing_literalstring.analysis.runs import Runs, error_key, errors_in
from typing_literalstring.analysis.stub_errors import (
    about_literal_strings,
    fails_for_another_reason,
    judge_sink_errors,
    refuse_plugin_failures,
    revealed_literal_callees,
    stub_errors,
)
from typing_literalstring.checkers import (
    Checker,
    Mypy,
    MypyPlugin,
    RunResult,
    enforcing,
    get_checker,
)
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from typing_literalstring.core import sources
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.core.project import (
    choose_environment,
    common_root,
    python_files,
    search_paths,
)
from typing_literalstring.report import baseline, output
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.cache import cached_overlay
from typing_literalstring.specs.installed import imported_names
from typing_literalstring.specs.overlay import UNTIGHTENED, stdlib_modules


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
    runs = Runs(checker, python_version, environment, workdir, platform, (), (cache_dir, root))
    result.checker_runs, result.checker_seconds = runs.started, runs.seconds
    base = checker.overlay_base()
    stdlib = Stdlib(base, stdlib_modules(base))
    try:
        progress("tightening the third-party packages installed in the checked environment")
        imports = imported_names(Path(p) for p in found)
        result.third_party = thirdparty.build(environment.python, profile, cache_dir, imports)
        runs = replace(runs, third_party=tuple(c.root for c in result.third_party if c.root))
        # Parsing every file costs about as much as a fast checker's run.  Where a syntax
        # error does not stop the checker, the files are parsed while it runs (it waits in
        # another process); elsewhere the files that do not parse are left out of its run.
        before = sources.digests(found.values())
        # Shells in argument lists and logging calls with only *args are judged by probes in
        # copies of their files, checked in the originals' place in the same run.
        roots, host_grammar = search, isinstance(checker, Mypy)
        probed = probes.instrumented(parse_all(probes.candidates(found.values()), roots)[0])
        here = {p: c for p, c in probed.items() if probes.in_place(runs, c, root)}
        with ThreadPoolExecutor(max_workers=1) as pool:
            parsing = pool.submit(parse_all, list(found.values()), roots, host_grammar)
            if not checker.checks_past_syntax_errors:
                files = set(parsing.result()[0])
            else:
                files = set(found)
            run: RunResult | None = None
            if files:
                progress(f"running {checker.name} on {len(files)} files")
                copies = {p: c.copy.text for p, c in here.items() if p in files}
                extra = [probes.probe_stub(runs)] if copies else []
                run = runs.run_in_place(
                    files, "tightened", search, extra, overlay.root, root, copies
                )
            parsed, unparsable = parsing.result()
            result.unparsable += unparsable
        result.files = len(parsed)
        if run is None or not parsed:
            return result
        files = set(parsed)
        diagnostics, argv = probes.split(run.diagnostics, here, checker.name)
        run = replace(run, diagnostics=diagnostics)
        tightened = errors_in(run, files)
        refuse_plugin_failures(checker, tightened, cwd)
        # Errors at calls to our sinks may come from our stubs.  Most say so themselves; the
        # files with one that does not are compared with a run on the untightened stubs.
        from_stubs, at_sinks = judge_sink_errors(tightened, parsed, checker.name)
        if at_sinks:
            progress(f"comparing {len(at_sinks)} files with the untightened stubs")
            stock_overlay = cached_overlay(checker, UNTIGHTENED, cache_dir)
            result.rebuilt_corrupt_cache |= stock_overlay.rebuilt_corrupt
            stock = runs.run(at_sinks, "untightened", search, stock_overlay.root, stock=True)
            from_stubs |= stub_errors(tightened, stock, at_sinks)
        about = about_literal_strings(run, tightened, from_stubs, checker.name)
        unsure = [
            d
            for d in tightened
            if is_no_matching_overload(d)
            and error_key(d) not in about
            and error_key(d) not in from_stubs
            and not names_a_str_method(d)
            and not names_an_operator(d)
            and not fails_for_another_reason(d, tightened)
        ]
        if unsure and checker.reveals_overload_callees:
            progress(
                f"asking {checker.name} which of {len(unsure)} overloaded callees take "
                "LiteralString"
            )
            about |= revealed_literal_callees(runs, unsure, parsed, root, stdlib)
        result.findings = classify(tightened, from_stubs, about, parsed, result, stdlib)
        apart = {p: c for p, c in probed.items() if p not in here and p in parsed}
        if apart:
            progress(f"checking the shells and logging calls of {len(apart)} files apart")
        argv += probes.findings_apart(runs, apart, search, overlay.root)
        # The strict profile asks for a literal message anyway: the tightened run found those.
        seen = {(f.path, f.line, f.column, f.rule.id) for f in result.findings}
        argv = [f for f in argv if (f.path, f.line, f.column, f.rule.id) not in seen]
        result.findings = sorted_findings(result.findings + argv)
        if report_any:
            progress(f"asking {checker.name} which values of type Any reach a LiteralString")
            unverified_ = unverified_findings(
                runs, parsed, root, tightened, overlay.root, result.findings
            )
            result.findings = sorted_findings(result.findings + unverified_)
        result.paths = sorted(parsed)
        finish_findings(result, parsed)
        _refuse_changed_files(before, parsed)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def _refuse_changed_files(before: dict[Path, str], parsed: dict[str, Parsed]) -> None:
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


def _progress(message: str) -> None:
    """Long steps say what they do on stderr, when a person is watching it."""
    if sys.stderr.isatty():
        _say(message)


def _say(message: str) -> None:
    print(f"typing-literalstring: {message}...", file=sys.stderr, flush=True)


def _checker_runs(result: CheckResult) -> str:
    """How many checker processes the check started, for what, and what they cost: the
    benchmark (scripts/benchmark.py) tells the tool's own time and memory from the checker's
    with it."""
    runs = result.checker_runs
    listed = ", ".join(f"{name} ({files} file{'s' if files != 1 else ''})" for name, files in runs)
    said = f"{len(runs)} checker run{'s' if len(runs) != 1 else ''}" + (
        f": {listed}" if runs else ""
    )
    own, checkers = _peak_memory()
    return (
        f"{said}; {sum(result.checker_seconds):.2f} s in the checker; peak memory "
        f"{own} MB ours, {checkers} MB the checker's"
    )


def _peak_memory() -> tuple[int, int]:
    """Peak resident memory in MB of this process and of its largest child (the checker).

    Ours is the kernel's high-water mark of this program's own memory (VmHWM, Linux), not
    ru_maxrss: that one keeps, across exec, the memory of the process that started us (242 MB
    for every check the benchmark started).  The child's is ru_maxrss for want of better, so it
    is at least our size when we started it."""
    try:
        import resource
    except ImportError:  # Windows
        return 0, 0
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    unit = 1 if sys.platform == "darwin" else 1024
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii", errors="replace")
    except OSError:
        status = ""
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            own = int(line.split()[1]) * 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * unit
    return own // 2**20, child // 2**20


def command(args: argparse.Namespace) -> int:
    checker = get_checker(args.checker)
    result = run_check(
        checker,
        [Path(p) for p in args.paths],
        profile=args.profile,
        python_version=args.python_version,
        cache_dir=Path(args.cache_dir) if args.cache_dir else None,
        python=args.python,
        progress=_say if args.verbose else _progress,
        report_any=args.report_any,
        platform=args.platform,
    )
    if args.verbose:
        print(f"typing-literalstring: {_checker_runs(result)}", file=sys.stderr)
    if result.rebuilt_corrupt_cache:
        print("typing-literalstring: note: a corrupt cached overlay was rebuilt", file=sys.stderr)
    chosen = Path(args.baseline) if args.baseline else None
    baseline_path = chosen or result.project / baseline.DEFAULT
    if args.write_baseline:
        if result.unparsable:
            raise UsageError(
                "not writing the baseline: some files do not parse, so their findings are "
                "unknown; fix them first"
            )
        count = baseline.record(result, baseline_path)
        print(
            f"typing-literalstring: wrote {count} finding{'s' if count != 1 else ''} to the "
            f"baseline {baseline_path}",
            file=sys.stderr,
        )
    elif chosen is not None or baseline_path.is_file():
        if not baseline_path.is_file():
            raise UsageError(
                f"no baseline at {baseline_path}: write one with `typing-literalstring check "
                "--write-baseline`"
            )
        baseline.use(result, baseline_path)
    warn_unused = args.warn_unused_suppressions
    if args.format == "json":
        sys.stdout.write(output.as_json(result, args.show_other, warn_unused))
    elif args.format == "sarif":
        sys.stdout.write(output.sarif(result, warn_unused))
    else:
        sys.stdout.write(output.text(result, args.show_other, warn_unused))
    if result.unparsable:
        return EXIT_ERROR  # some code was not checked
    failing = result.findings or (args.warn_unused_suppressions and result.unused_suppressions)
    return EXIT_FINDINGS if failing else EXIT_OK
