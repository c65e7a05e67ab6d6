"""What each installed checker enforces, measured by running tiny probes, never assumed."""

from __future__ import annotations

import argparse
import ast
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from typing_literalstring.analysis import own_sinks
from typing_literalstring.analysis.literal_errors import (
    is_about_literal_string,
    is_no_matching_overload,
)
from typing_literalstring.checkers import (
    CHECKERS,
    COMMAND_CHECKERS,
    Checker,
    Mypy,
    MypyPlugin,
    RunResult,
    enforcing,
    mypy_config,
)
from typing_literalstring.commands import (
    EXIT_ERROR,
    EXIT_OK,
    config_files,
    init_folder,
    init_integrity,
)
from typing_literalstring.commands.check import UsageError
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.core.project import choose_environment, find_root
from typing_literalstring.core.project_imports import imported_top_levels
from typing_literalstring.core.safe_write import write_text_atomically
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.cache import incremental_cache
from typing_literalstring.specs.source_copy import module_file

# Line 5: an error iff the checker enforces LiteralString.  Line 6: no error iff its typeshed has
# the Appendix C overloads (upper() of a LiteralString is LiteralString).
ENFORCE_PROBE = """\
from typing_extensions import LiteralString
def sink(s: LiteralString) -> None: ...
def probe(user: str, literal: LiteralString) -> None:
    pass
    sink(user)
    sink(literal.upper())
"""
ENFORCE_LINE, APPENDIX_C_LINE = 5, 6
# An error on line 2 iff our overlay replaces os: the stock stub accepts a bytes command, ours
# does not.  It needs no LiteralString enforcement, so it works for mypy too.
OVERLAY_PROBE = """\
import os
os.system(b"ls")
"""
OVERLAY_LINE = 2


@dataclass(frozen=True)
class Diagnosis:
    checker: str
    version: str | None  # None: not installed
    enforces: bool | None = None
    appendix_c: bool | None = None
    appendix_c_how: str = ""
    project_loads_overlay: bool | None = None
    problem: str = ""  # why a probe could not run
    # Checkers that enforce through our plugin (mypy): whether the project's configuration
    # enables it, and why the plugin cannot run, if it cannot.
    project_enables_plugin: bool | None = None
    plugin_problem: str = ""
    # Plugins the project's mypy configuration names that the probe left out: importing them
    # would run the project's code (mypy_config.py).
    unloaded_plugins: tuple[str, ...] = ()
    # mypy: whether the project's configuration has it check the bodies of unannotated
    # functions (check_untyped_defs, or strict); None for the other checkers.
    checks_untyped_bodies: bool | None = None


def _error_lines(checker: Checker, source: str, work: Path, project: Path | None) -> set[int]:
    target = None if project else ".".join(map(str, checker.newest_target))
    probe, result = _probe_run(checker, source, work, project, target, None, work.name)
    return {d.line for d in result.diagnostics if d.severity == "error" and d.path == str(probe)}


def _probe_run(
    checker: Checker,
    source: str,
    work: Path,
    project: Path | None,
    target: str | None,
    python: Path | None,
    kind: str,
) -> tuple[Path, RunResult]:
    """One run of ``checker`` on a probe holding ``source``.  mypy's incremental cache is kept
    in the user cache, as check keeps it (a second doctor rereads the standard library's types
    instead of analysing them again: 19 s to 2 s), one per probe ``kind``, project, target and
    environment."""
    kept = incremental_cache(
        None,
        "doctor-probe",
        checker.name,
        checker.version(),
        kind,
        str(project),
        str(target),
        str(python),
    )
    probe = _stable_probe(kept, source)
    result = checker.run(
        [probe],
        python_version=target,
        workdir=work / "run",
        project=project,
        python=python,
        incremental_cache=kept,
    )
    return probe, result


def _stable_probe(kept: Path, source: str) -> Path:
    """The probe file, at the same place for every run with this cache: mypy replays a cached
    module's errors under the path it had when they were found, so a probe in a new temporary
    folder each time had its errors filed under the old one, and doctor said mypy enforces
    nothing on its second run."""
    probe = kept.parent / f"{kept.name}-probe" / "probe.py"
    probe.parent.mkdir(parents=True, exist_ok=True)
    if not probe.is_file() or probe.read_text(encoding="utf-8") != source:
        write_text_atomically(probe, source, prefix=".probe-")
    return probe.resolve()


def _appendix_c_in_files(checker: Checker) -> int | None:
    """How many ``self: LiteralString`` overloads the checker's builtins.pyi has, if it has one."""
    if checker.bundled_typeshed is None:
        return None
    text = (checker.typeshed_dir() / "stdlib" / "builtins.pyi").read_text(encoding="utf-8")
    return text.count("self: LiteralString")


def diagnose(checker: Checker, project: Path) -> Diagnosis:
    if not checker.is_installed():
        return Diagnosis(checker.name, None)
    # Enforcement is measured on the checker as `check` runs it: mypy with our plugin.
    measured = enforcing(checker)
    plugin_problem = ""
    enables_plugin: bool | None = None
    try:
        version = checker.version()
        if isinstance(measured, MypyPlugin):
            plugin_problem = measured.plugin_problem() or ""
            if plugin_problem:
                measured = checker
        with tempfile.TemporaryDirectory(prefix="typing-literalstring-doctor-") as tmp:
            work = Path(tmp)
            for folder in ("a", "b", "c"):
                (work / folder).mkdir()
            errors = _error_lines(measured, ENFORCE_PROBE, work / "a", None)
            configured = _error_lines(checker, OVERLAY_PROBE, work / "b", project)
            if measured is not checker or plugin_problem:
                in_project = _error_lines(checker, ENFORCE_PROBE, work / "c", project)
                enables_plugin = ENFORCE_LINE in in_project
    except TypingLiteralStringError as error:
        return Diagnosis(checker.name, None, problem=str(error))
    enforces = ENFORCE_LINE in errors
    if enforces:
        appendix_c: bool | None = APPENDIX_C_LINE not in errors
        how = "probe"
    else:
        count = _appendix_c_in_files(checker)
        appendix_c = None if count is None else count > 0
        how = f"{count} overloads in its builtins.pyi" if count is not None else "unknown"
    return Diagnosis(
        checker.name,
        version,
        enforces,
        appendix_c,
        how,
        OVERLAY_LINE in configured,
        project_enables_plugin=enables_plugin,
        plugin_problem=plugin_problem,
        unloaded_plugins=_unloaded_plugins(checker, project),
        checks_untyped_bodies=(
            init_folder.checks_untyped_bodies(project) if isinstance(checker, Mypy) else None
        ),
    )


def _unloaded_plugins(checker: Checker, project: Path) -> tuple[str, ...]:
    if not isinstance(checker, Mypy):
        return ()
    found = mypy_config.find(project)
    return () if found is None else found.other_plugins


def _yes_no(value: bool | None) -> str:
    return "unknown" if value is None else "yes" if value else "no"


def render(diagnoses: list[Diagnosis], altered: set[str] | None = None) -> str:
    """One line a checker; ``altered``: the checkers whose overlay is not what init wrote."""
    lines: list[str] = []
    for d in diagnoses:
        if d.version is None:
            hint = d.problem or f"not installed (pip install {CHECKERS[d.checker].distribution})"
            lines.append(f"{d.checker}: {hint}")
            continue
        enforces = _yes_no(d.enforces)
        if d.plugin_problem:
            enforces += (
                " (it reads LiteralString as plain str: mypy issue 12554; our plugin cannot "
                f"run: {d.plugin_problem})"
            )
        elif d.project_enables_plugin is not None and d.enforces:
            enforces += " (with our plugin, typing_literalstring.mypy)"
        appendix = _yes_no(d.appendix_c)
        if d.appendix_c_how != "probe":
            appendix += f" ({d.appendix_c_how})"
        loads = _yes_no(d.project_loads_overlay)
        if d.project_enables_plugin is not None:
            loads += f"; enables our plugin: {_yes_no(d.project_enables_plugin)}"
        if d.unloaded_plugins:
            loads += (
                f" (its other plugins, {', '.join(d.unloaded_plugins)}, were not loaded: "
                "doctor runs no code of the project)"
            )
        if d.project_loads_overlay and d.checker in (altered or set()):
            loads += (
                ", but not the stubs init wrote: files of the overlay were changed since "
                "(named below)"
            )
        if not d.project_loads_overlay or d.project_enables_plugin is False:
            loads += f" (run `typing-literalstring init --checker {d.checker}`)"
        if d.checks_untyped_bodies is False:
            loads += (
                "; mypy does not check unannotated bodies (check_untyped_defs is off): the "
                "sinks called in functions without annotations go unchecked"
            )
        lines.append(
            f"{d.checker} {d.version}: enforces LiteralString: {enforces}; Appendix C str "
            f"overloads: {appendix}; this project's configuration loads our stubs: {loads}"
        )
    return "\n".join(lines) + "\n"


def third_party(python: Path, project: Path, checkers: list[Checker]) -> str:
    """Which third-party packages `check` tightens for the environment of ``python`` (the same
    for every checker: docs/third-party-overrides.md), and, for each installed checker, whether
    its own run in ``project`` (with the project's configuration) refuses a str at each
    package's sink: measured with a probe file, as for the standard library."""
    coverage = thirdparty.build(python, "default")
    covered = [c for c in coverage if c.covered]
    own: dict[str, dict[str, bool] | str] = {}
    if covered:
        source, lines = third_party_probe(covered)
        for checker in checkers:
            if not checker.is_installed():
                continue
            try:
                with tempfile.TemporaryDirectory(prefix="typing-literalstring-doctor-") as tmp:
                    refused = _literal_error_lines(checker, source, Path(tmp), project, python)
            except TypingLiteralStringError as error:
                own[checker.name] = str(error)
                continue
            own[checker.name] = {
                package: all(n in refused for n, p in lines.items() if p == package)
                for package in set(lines.values())
            }
    out = [f"third-party sinks, for the packages installed in {python}:"]
    for c in coverage:
        if not c.covered:
            out.append(f"  {c.package}: {c.why}")
            continue
        runs: list[str] = []
        for name, found in own.items():
            if isinstance(found, str):
                runs.append(f"{name}: unknown ({found})")
            else:
                runs.append(f"{name}: {_yes_no(found.get(c.package))}")
        said = f"; your own runs refuse a str at its sinks: {', '.join(runs)}" if runs else ""
        missing = [n for n, f in own.items() if isinstance(f, dict) and not f.get(c.package)]
        hint = (
            f" (run `typing-literalstring init {' '.join('--checker ' + n for n in missing)}`, "
            "and again after upgrading it)"
            if missing
            else ""
        )
        entries = _entry_points(c.distribution)
        out.append(
            f"  {c.package}: `check` tightens {entries} ({c.base}) for every checker{said}{hint}"
        )
    return "\n".join(out) + "\n"


def generated_folder(project: Path, python: Path) -> list[init_integrity.Problem]:
    """What is wrong with the overlays the checkers' configuration points them at: missing,
    not what ``init`` would write now, or changed since (init_integrity.py); and our settings
    in a file a checker does not read (config_files.py)."""
    versions = {
        name: checker.version() if checker.is_installed() else None
        for name, checker in CHECKERS.items()
    }
    imports: set[str] | None = None
    coverages: dict[str, list[thirdparty.Coverage]] = {}

    def coverage(profile: str) -> list[thirdparty.Coverage]:
        nonlocal imports
        if profile not in coverages:
            imports = imported_top_levels(project) if imports is None else imports
            coverages[profile] = thirdparty.build(python, profile, imports=imports)
        return coverages[profile]

    def packages(profile: str) -> dict[str, str]:
        return {c.package: c.base for c in coverage(profile) if c.root is not None}

    def rebuild(name: str, profile: str, out: Path) -> None:
        init_folder.build_for(CHECKERS[name], out, profile, coverage(profile))

    now = init_integrity.Now(
        versions, lambda name: init_folder.base_of(CHECKERS[name]), packages, rebuild
    )
    misplaced = config_files.misplaced(project, list(CHECKERS))
    problems = [init_integrity.Problem(checker, text) for checker, text in misplaced]
    return problems + init_integrity.folder_problems(project, now)


def _entry_points(distribution: str) -> str:
    """What our specification tightens in a distribution, each entry point by name: a package
    is covered only where its specification reaches (aiosqlite's Connection helpers were not,
    while its Cursor was)."""
    names = dict.fromkeys(
        f"{t.owner}.{t.function}" if t.owner else t.function
        for t in own_sinks.tightened_parameters()
        if t.distribution == distribution
    )
    shown = [n.replace(".__init__", "()").replace(".__new__", "()") for n in names]
    return ", ".join(shown) if shown else "it"


def third_party_probe(coverage: list[thirdparty.Coverage]) -> tuple[str, dict[int, str]]:
    """A file calling every sink of the covered packages with a ``str``, and the package of
    each call's line.  The arguments are placed as the tightened signature orders them, every
    other required one being Any, so the only error a call can draw is about LiteralString."""
    imports: set[str] = set()
    receivers: dict[str, str] = {}  # "psycopg2._psycopg.cursor" -> "r0"
    calls: list[tuple[str, str]] = []
    for c in coverage:
        assert c.root is not None
        for spec in thirdparty.specifications()[c.distribution]:
            if spec.package != c.package:
                continue
            source = module_file(c.root / spec.package, spec.target)
            tree = ast.parse(source.read_text(encoding="utf-8"))
            module = spec.target[: -len(".pyi")].replace("/", ".")
            module = module[: -len(".__init__")] if module.endswith(".__init__") else module
            imports.add(module)
            for function in spec.functions:
                for retype in function.retypes:
                    if not retype.annotation.startswith("LiteralString"):
                        continue  # a collection of them (Django's extra): not probed
                    arguments = _probe_arguments(tree, function.owner, function.name, retype.name)
                    if arguments is None:
                        continue
                    if function.owner is None:
                        callee = f"{module}.{function.name}"
                    elif function.name in ("__init__", "__new__"):
                        callee = f"{module}.{function.owner}"
                    else:
                        owner = f"{module}.{function.owner}"
                        receiver = receivers.setdefault(owner, f"r{len(receivers)}")
                        callee = f"{receiver}.{function.name}"
                    calls.append((f"{callee}({arguments})", c.package))
    code = ["from typing import Any", "", *(f"import {m}" for m in sorted(imports)), "", ""]
    typed = [f"{name}: {owner}" for owner, name in receivers.items()]
    code.append(f"def probe({', '.join(['s: str', 'x: Any', *typed])}) -> None:")
    lines: dict[int, str] = {}
    for call, package in calls:
        code.append(f"    {call}")
        lines[len(code)] = package
    return "\n".join(code) + "\n", lines


def _probe_arguments(tree: ast.Module, owner: str | None, name: str, parameter: str) -> str | None:
    """The arguments of a call passing ``s`` to ``parameter`` of ``owner.name`` (``x``, Any,
    to every other required one); None when the tightened module has no such definition or
    the parameter cannot be passed alone (``*args``)."""
    scope: list[ast.stmt] = tree.body
    if owner is not None:
        classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == owner]
        if not classes:
            return None
        scope = classes[0].body
    definition = next(
        (
            node
            for statement in scope
            for node in ast.walk(statement)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
        ),
        None,
    )
    if definition is None:
        return None
    positional = [*definition.args.posonlyargs, *definition.args.args][owner is not None :]
    names = [a.arg for a in positional]
    required = len(positional) - len(definition.args.defaults)
    arguments: list[str] = []
    if parameter in names:
        at = names.index(parameter)
        arguments = ["x"] * at + ["s"] + ["x"] * max(0, required - at - 1)
    for argument, default in zip(definition.args.kwonlyargs, definition.args.kw_defaults):
        if argument.arg == parameter:
            arguments.append(f"{parameter}=s")
        elif default is None:
            arguments.append(f"{argument.arg}=x")
    if "s" not in arguments and f"{parameter}=s" not in arguments:
        return None
    if parameter not in names:  # keyword-only: the positional ones still need values
        arguments = ["x"] * required + arguments
    return ", ".join(arguments)


def _literal_error_lines(
    checker: Checker, source: str, work: Path, project: Path, python: Path
) -> set[int]:
    probe, result = _probe_run(checker, source, work, project, None, python, "third-party")
    name = "mypy+plugin" if checker.name == "mypy" else checker.name
    return {
        d.line
        for d in result.diagnostics
        if d.severity == "error"
        and d.path == str(probe)
        # With a str and Any arguments, only our tightening leaves no overload to match
        # (django-stubs' mark_safe).
        and (is_about_literal_string(d, name) or is_no_matching_overload(d))
    }


def command(args: argparse.Namespace) -> int:
    start = Path(args.project)
    if not start.is_dir():
        raise UsageError(f"no such project folder: {start}")
    project = find_root(start)  # the configuration the checkers read there is the root's
    checkers = [CHECKERS[name] for name in args.checker or COMMAND_CHECKERS]
    diagnoses = [diagnose(checker, project) for checker in checkers]
    python = choose_environment(args.python, project).python
    problems = generated_folder(project, python)
    sys.stdout.write(render(diagnoses, {p.checker for p in problems if p.altered}))
    sys.stdout.write(third_party(python, project, checkers))
    failed = [d.checker for d in diagnoses if d.problem]
    if problems:
        # pyright's stubPath and mypy's mypy_path pointing at nothing (a git-ignored folder in
        # CI), at old stubs or at stubs loosened by hand, or set where the checker does not
        # read them, is silent: the checker runs, enforces less and passes.
        for problem in problems:
            print(f"typing-literalstring: error: {problem.text}", file=sys.stderr)
        return EXIT_ERROR
    if failed:
        # A checker that is installed but could not be probed leaves the question open: a CI
        # step running doctor must not read that as an answer.
        print(
            f"typing-literalstring: error: could not probe {', '.join(failed)} (said above); "
            "what it enforces is unknown",
            file=sys.stderr,
        )
        return EXIT_ERROR
    return EXIT_OK
