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
   calls with only ``*args`` (``analysis.probes``), what each SQL, shell, template and markup
   call's text and callee were revealed as, which gives every such call its outcome (proven,
   a finding, or unverified: ``analysis.sink_outcomes``), all in the same run; and with
   ``--report-any`` values of type Any (``analysis.report_any``, two runs more);
5. findings are fingerprinted, given their fix and matched with suppression comments
   (``analysis.classify.finish_findings``); ``report`` shows them.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Callable, Mapping, Sequence

from typing_literalstring.analysis import probe_cache, probes, sink_outcomes, wrapper_flows
from typing_literalstring.analysis.classify import Stdlib, classify, finish_findings
from typing_literalstring.analysis.findings import (
    CheckResult,
    Finding,
    Unchecked,
    Unparsable,
    sorted_findings,
)
from typing_literalstring.analysis.parsed import Parsed, parse_all, refuse_changed_files
from typing_literalstring.analysis.report_any import unverified_findings
from typing_literalstring.analysis.runs import Runs, errors_in
from typing_literalstring.analysis.scoped_bindings import scopes_at
from typing_literalstring.analysis.stub_errors import judge, refuse_plugin_failures
from typing_literalstring.analysis.wrapper_calls import Wrapper
from typing_literalstring.checkers import (
    COMMAND_CHECKERS,
    Checker,
    Mypy,
    MypyPlugin,
    RunResult,
    enforcing,
    get_checker,
)
from typing_literalstring.checkers.asking import Probe, probe_for
from typing_literalstring.checkers.out_of_memory import CheckerOutOfMemoryError
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, memory
from typing_literalstring.core import literal_idioms, sources
from typing_literalstring.core.config import ConfigError, Settings, read, selected, selectors
from typing_literalstring.core.errors import CheckerFailedError, TypingLiteralStringError
from typing_literalstring.core.project import (
    choose_environment,
    common_root,
    search_paths,
)
from typing_literalstring.core.project_files import list_files
from typing_literalstring.report import (
    baseline,
    cost,
    json_output,
    left_out,
    output,
    sarif_output,
    selection,
    terminal,
)
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.cache import cache_root, cached_overlay
from typing_literalstring.specs.installed import imported_names
from typing_literalstring.specs.overlay import stdlib_modules
from typing_literalstring.specs.tighten import PROFILES


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
# Gives the current step a way to say how far it is ("read 12/40"): the progress line calls it
# each time it is drawn, from another thread.
Watch = Callable[[Callable[[], str]], None]


def _silent(_: str) -> None:
    return None


def _unwatched(_: Callable[[], str]) -> None:
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
    exclude: Sequence[str] = (),
    watch: Watch = _unwatched,
) -> CheckResult:
    """Check ``paths`` (none: the project root) with ``checker`` and our tightened stubs.

    The project root is found from the first path (or ``cwd``) upwards; its modules resolve from
    the root (and ``src/``), third-party ones from ``python`` (see ``choose_environment``).
    mypy runs with our plugin (``typing_literalstring.mypy``), which makes it enforce PEP 675.
    Files whose root-relative path matches a glob of ``exclude`` (``selection.matches``) are
    not checked; ``watch`` is given how far the long steps are (files read, checker runs).
    """
    cwd = (cwd or Path.cwd()).resolve()
    checker = _check_arguments(checker, paths, python_version)
    root = common_root(paths, cwd)
    targets = list(paths) or [root]
    environment = choose_environment(python, root)
    search = search_paths(root)
    result = CheckResult(checker.name, checker.version(), profile, root, cwd, environment)
    found: dict[str, Path] = {}
    listing = list_files(targets, selection.excluder(root, exclude))
    result.skipped_folders = listing.skipped
    result.excluded_files = listing.excluded_files
    result.excluded_folders = listing.excluded_folders
    # A folder that cannot be listed is reported as an unreadable file is: the rest is checked.
    result.unparsable += [Unparsable(str(u.path), 0, u.why) for u in listing.unlisted]
    for path in listing.files:
        refused = sources.not_read(path, root)
        if refused is None:
            found[str(path.resolve())] = path
        else:
            result.unparsable.append(Unparsable(str(path), 1, refused))
    if not found and not result.unparsable:
        if listing.excluded_files or listing.excluded_folders:
            return result  # what the configuration excludes is not an error: nothing to do
        skipped = left_out.skipped_notice(result)
        where = ", ".join(map(str, targets)) + (f" ({skipped})" if skipped else "")
        raise UsageError(f"no Python file to check in {where}")
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
        packages = [0, 0]  # done, of how many: set by the build, read by the progress line

        def tell(done: int, total: int) -> None:
            packages[:] = [done, total]

        watch(lambda: f"{packages[0]}/{packages[1]} packages" if packages[1] else "")
        result.third_party = thirdparty.build(environment.python, profile, cache_dir, imports, tell)
        runs = replace(runs, third_party=tuple(c.root for c in result.third_party if c.root))
        # Parsing every file costs about as much as a fast checker's run, so the files are
        # parsed while the checker runs (it waits in another process).
        before = sources.digests(found.values())
        # Every sink call is asked about in the copy of its file, checked in the original's
        # place in the same run (analysis.probes); the probe module's names carry a secret of
        # the user's cache, which no checked project can know (checkers.asking).
        roots, host_grammar = search, isinstance(checker, Mypy)
        probe = probe_for(cache_root(cache_dir))
        probed = _probed_copies(checker, found, roots, probe, profile, cache_dir, root, before)
        here = {p: c for p, c in probed.items() if probes.in_place(runs, c, root)}
        result.wrappers = probes.wrappers_called(probed)
        progress(f"running {checker.name} on {len(found)} file{'s' if len(found) != 1 else ''}")
        read = [0]  # how many files are parsed: counted by the parsing thread
        watch(lambda: f"read {read[0]}/{len(found)}")
        # The parse waits for the checker's process to start: parsing a file holds the
        # interpreter's lock for milliseconds at a time, and the main thread, which writes the
        # copies and starts the checker, waited that long at each of its file operations
        # (0.2 to 0.3 s before pyright started on huey's 41 files).
        begun = threading.Event()
        with ThreadPoolExecutor(max_workers=1) as pool:
            listed = list(found.values())
            parsing = pool.submit(_parse_counted, listed, roots, host_grammar, read, probed, begun)
            try:
                run = _run_tightened(
                    replace(runs, on_start=begun.set),
                    set(found),
                    here,
                    search,
                    overlay.root,
                    root,
                    parsing,
                    probe,
                    begun,
                )
            finally:
                begun.set()  # no run started (nothing to check, a checker that failed)
            parsed, unparsable = parsing.result()
            result.unparsable += unparsable
        result.files = len(parsed)
        if run is None or not parsed:
            return result
        files = set(parsed)
        diagnostics, types, judged = probes.split(run.diagnostics, here, checker, probe)
        run = replace(run, diagnostics=diagnostics)
        tightened = errors_in(run, files)
        refuse_plugin_failures(checker, tightened, cwd)
        from_stubs, about = judge(tightened, parsed, checker.name, stdlib, run.diagnostics)
        result.findings = classify(tightened, from_stubs, about, parsed, result, stdlib)
        judged_calls = _sink_outcomes(result, parsed, probed, here, (types, judged), probe)
        if report_any:
            progress(f"asking {checker.name} which values of type Any reach a LiteralString")
            # Its two checker runs (report_any.unverified_findings) are counted as they start.
            first = len(runs.started)
            watch(lambda: f"{min(len(runs.started) - first, 2)}/2 checker runs started")
            unverified_ = unverified_findings(
                runs, parsed, root, tightened, overlay.root, result.findings
            )
            # A call the sink outcomes judged already keeps their finding, which says more.
            unverified_ = [f for f in unverified_ if (f.path, f.line) not in judged_calls]
            result.findings = sorted_findings(result.findings + unverified_)
        result.paths = sorted(parsed)
        finish_findings(result, parsed)
        refuse_changed_files(before, parsed)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def _probed_copies(
    checker: Checker,
    found: dict[str, Path],
    roots: Sequence[Path],
    probe: Probe,
    profile: str,
    cache_dir: Path | None,
    root: Path,
    digests: dict[Path, str],
) -> dict[str, probes.ProbedCopy]:
    """The copies with questions of the files that need them: those of the last check when
    nothing they are made from changed (``probe_cache``), else made now and kept."""
    wanted = probe_cache.key(digests, roots, checker.name, checker.version(), profile, probe.module)
    kept = probe_cache.load(cache_dir, root, checker.name, profile, wanted)
    if kept is not None:
        return kept
    # The files with sink calls, and with calls of the project's own sink wrappers.
    candidates, wrapping, project = probes.with_wrappers(found.values(), roots)
    probed = probes.instrumented(candidates, checker, probe, wrapping, project, profile)
    probe_cache.store(cache_dir, root, checker.name, profile, wanted, probed)
    return probed


def _parse_counted(
    paths: list[Path],
    roots: Sequence[Path],
    host_grammar: bool,
    read: list[int],
    copies: Mapping[str, probes.ProbedCopy] | None = None,
    begun: threading.Event | None = None,
) -> tuple[dict[str, Parsed], list[Unparsable]]:
    """``parse_all``, a file at a time, counting those read in ``read[0]``; then, still while
    the checker runs, the indexes the verdicts will ask of the files with sink calls (the
    idioms literal in fact of the copies' trees, the scopes of the parsed ones): found here,
    they cost no wall time on a checker run longer than the parse.  The main thread waits for
    this future before it reads any of them.  With ``begun``, nothing starts before it is set
    (the checker's process has started)."""
    if begun is not None:
        begun.wait()
    parsed: dict[str, Parsed] = {}
    unparsable: list[Unparsable] = []
    for path in paths:
        one, refused = parse_all([path], roots, host_grammar)
        parsed.update(one)
        unparsable += refused
        read[0] += 1
    for name, copied in (copies or {}).items():
        if copied.looks and copied.tagged is not None:
            literal_idioms.prepare(copied.tagged.tree)
            entry = parsed.get(name)
            if entry is not None:
                scopes_at(entry.tree)
    return parsed, unparsable


def _sink_outcomes(
    result: CheckResult,
    parsed: dict[str, Parsed],
    probed: dict[str, probes.ProbedCopy],
    here: dict[str, probes.ProbedCopy],
    answers: tuple[probes.Answers, probes.Answers],
    probe: Probe,
) -> set[tuple[str, int]]:
    """Give every sink call of the checked files its outcome (``sink_outcomes``) from the
    run's answers about it: the counts and unverified calls go to ``result``, the findings
    they are worth join its findings.  The places of those findings."""
    untyped = sink_outcomes.untyped_functions(entry.tree for entry in parsed.values())
    types, judged = answers
    added: list[Finding] = []
    proven: set[tuple[str, int, int]] = set()
    through: list[tuple[Finding, Wrapper]] = []
    reached: list[Wrapper] = []
    wrapper_calls: list[tuple[Wrapper, str]] = []
    parameters: dict[tuple[str, int, int], frozenset[str] | None] = {}
    for path, copied in sorted(probed.items()):
        if path not in parsed or not copied.looks or copied.tagged is None:
            continue
        # A copy not checked in place (outside the root, for a checker that reads no shadow
        # files) was asked nothing: its calls count as unverified, never as proven.
        asked = path in here
        if asked:
            copied.tagged.answered(types.get(path, {}), judged.get(path, {}), probe)
        out = sink_outcomes.outcomes(
            path, copied.looks, copied.tagged, result.findings, untyped, asked
        )
        # A sandboxed template, markup built from escaped text, a finding the evidence made
        # again: no second finding.
        result.findings = [f for f in result.findings if f.path != path or not out.clears(f)]
        # The checker's errors about a call whose finding the evidence made say it again.
        result.other = [
            d for d in result.other if d.path != path or (d.line, d.column) not in out.quieted
        ]
        result.sink_calls += out.calls
        result.proven += out.proven
        result.unverified += out.unverified
        added += out.findings
        proven |= {(path, line, column) for line, column in out.proven_at}
        through += out.through
        reached += out.judged_wrappers
        wrapper_calls += out.wrapper_calls
        parameters.update({(path, *at): p for at, p in out.parameters.items()})
    # A wrapper whose own call is proven literal checked its parameter: its callers' calls are
    # proven too.
    added, validated = wrapper_flows.drop_validated_wrappers(added, through, proven)
    result.proven += validated
    # One flow, one finding: a wrapper's inner call whose callers are judged is theirs, and
    # proven when every one of them is.
    kept = wrapper_flows.one_finding_per_flow(added, reached, parameters)
    folded = [f for f in added if all(f is not k for k in kept)]
    result.proven += wrapper_flows.folded_proven(folded, wrapper_calls)
    added = kept
    result.findings = sorted_findings(result.findings + added)
    return {(f.path, f.line) for f in added}


def _run_tightened(
    runs: Runs,
    files: set[str],
    here: dict[str, probes.ProbedCopy],
    search: Sequence[Path],
    overlay: Path,
    root: Path,
    parsing: Future[tuple[dict[str, Parsed], list[Unparsable]]],
    probe: Probe,
    begun: threading.Event,
) -> RunResult | None:
    """The one checker run on ``files``, started while they are parsed.

    mypy and pyrefly stop at a file with a syntax error: should one turn up (rare), the run
    is made again without the files that do not parse.  A checker that runs out of memory
    is run again without the largest files (``memory.leave_out``)."""

    def run_on(files: set[str]) -> RunResult | None:
        copies = {p: c.copy.text for p, c in here.items() if p in files}
        extra = [probes.probe_stub(runs, probe)] if copies else []
        return runs.run_in_place(files, "tightened", search, extra, overlay, root, copies)

    started: RunResult | CheckerFailedError | None = None
    try:
        started = run_on(files) if files else None
    except CheckerOutOfMemoryError as error:
        files, started = memory.without_largest(files, error, run_on, parsing)
    except CheckerFailedError as error:
        started = error
    begun.set()  # a checker that could not start: the parse waits for nothing else
    parsed = set(parsing.result()[0])
    if runs.checker.checks_past_syntax_errors or parsed >= files:
        if isinstance(started, CheckerFailedError):
            raise started
        return started
    return run_on(parsed) if parsed else None


def _settings(args: argparse.Namespace) -> tuple[Settings, selection.Selection]:
    """The configuration table of the project's root, and the selection the options and the
    table make: an option given on the command line replaces the table's key."""
    root = common_root([Path(p) for p in args.paths], Path.cwd().resolve())
    settings = read(root, sorted(COMMAND_CHECKERS), PROFILES)
    select = selected(args.select, "--select") if args.select is not None else settings.select
    ignore = selectors(args.ignore, "--ignore") if args.ignore is not None else settings.ignore
    chosen = selection.Selection(
        select=select if select is not None else selection.EVERY_RULE,
        ignore=ignore or (),
        per_file_ignores=settings.per_file_ignores,
    )
    return settings, chosen


def command(args: argparse.Namespace) -> int:
    settings, chosen = _settings(args)
    if args.no_baseline and (args.write_baseline or args.baseline):
        raise ConfigError(
            "--no-baseline ignores the baseline: give it without --baseline and --write-baseline"
        )
    named = Path(args.baseline) if args.baseline else settings.baseline
    if named is not None and not args.no_baseline and not args.write_baseline:
        baseline.refuse_missing(named)  # before the run, not after it
    checker = get_checker(args.checker or settings.checker or "pyright")
    profile = args.profile or settings.profile or "default"
    live = not args.quiet and terminal.can_redraw(sys.stderr)
    progress = terminal.Progress(sys.stderr, live=live, verbose=args.verbose)

    try:
        result = run_check(
            checker,
            [Path(p) for p in args.paths],
            profile=profile,
            python_version=args.python_version,
            cache_dir=Path(args.cache_dir) if args.cache_dir else None,
            python=args.python,
            progress=progress,
            report_any=args.report_any,
            platform=args.platform,
            exclude=settings.exclude,
            watch=progress.watch,
        )
    finally:
        progress.close()
    if args.verbose:
        print(f"typing-literalstring: {cost.checker_runs(result)}", file=sys.stderr)
    if result.rebuilt_corrupt_cache and not args.quiet:
        print("typing-literalstring: note: a corrupt cached overlay was rebuilt", file=sys.stderr)
    # Selection comes before the baseline and the exit status: a rule not selected neither
    # fails the run nor is matched against (or dropped from) the baseline.
    selection.apply(result, chosen)
    if not args.no_baseline:
        written = baseline.apply(result, named, args.write_baseline, chosen.reports)
        if written is not None and not args.quiet:
            count, where = written
            print(
                f"typing-literalstring: wrote {count} finding{'s' if count != 1 else ''} to the "
                f"baseline {where}",
                file=sys.stderr,
            )
    warn_unused = args.warn_unused_suppressions
    shown = output.Shown(args.show_other, warn_unused, args.show_unverified, args.verbose)
    if args.format == "json":
        sys.stdout.write(json_output.as_json(result, shown))
    elif args.format == "sarif":
        sys.stdout.write(sarif_output.sarif(result, shown))
    elif args.quiet:
        # The summary, why the run exits 2 when files were not checked, and why it cannot
        # fail when the configuration leaves it nothing to report.
        errors = [f"error: {line}" for line in left_out.unparsable_notice(result)]
        void = left_out.selection_notice(result)
        said = [*errors, *([f"warning: {void}"] if void else [])]
        lines = [output.printable(line) for line in said] + [output.summary(result)]
        sys.stdout.write(_coloured("\n".join(lines) + "\n"))
    else:
        sys.stdout.write(_coloured(output.text(result, shown)))
    if result.unparsable:
        return EXIT_ERROR  # some code was not checked
    gate = args.fail_on_unverified
    if gate is None:
        gate = bool(settings.fail_on_unverified)
    failing = (
        result.findings
        or (args.warn_unused_suppressions and result.unused_suppressions)
        or (gate and result.unverified)
    )
    return EXIT_FINDINGS if failing else EXIT_OK


def _coloured(text: str) -> str:
    return terminal.coloured(text) if terminal.colour_wanted(sys.stdout) else text
