"""What each installed checker enforces, measured by running tiny probes, never assumed."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import thirdparty
from .checkers import CHECKERS, Checker, MypyPlugin, enforcing
from .errors import TypingLiteralStringError

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


def _error_lines(checker: Checker, source: str, work: Path, project: Path | None) -> set[int]:
    probe = work / "probe.py"
    probe.write_text(source, encoding="utf-8")
    result = checker.run(
        [probe],
        python_version=None if project else ".".join(map(str, checker.newest_target)),
        workdir=work / "run",
        project=project,
    )
    return {d.line for d in result.diagnostics if d.severity == "error" and d.path == str(probe)}


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
    )


def _yes_no(value: bool | None) -> str:
    return "unknown" if value is None else "yes" if value else "no"


def render(diagnoses: list[Diagnosis]) -> str:
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
        if not d.project_loads_overlay or d.project_enables_plugin is False:
            loads += f" (run `typing-literalstring init --checker {d.checker}`)"
        lines.append(
            f"{d.checker} {d.version}: enforces LiteralString: {enforces}; Appendix C str "
            f"overloads: {appendix}; this project's configuration loads our stubs: {loads}"
        )
    return "\n".join(lines) + "\n"


def third_party(python: Path) -> str:
    """Which third-party packages `check` tightens for the environment of ``python``: the same
    for every checker (docs/third-party-overrides.md), and only in `check` so far."""
    coverage = thirdparty.build(python, "default")
    lines = [f"third-party sinks, for the packages installed in {python}:"]
    for c in coverage:
        if c.covered:
            lines.append(
                f"  {c.package}: `check` tightens it ({c.base}) for every "
                "checker; your own checker runs do not load it (`init` writes only the "
                "standard library's stubs so far)"
            )
        else:
            lines.append(f"  {c.package}: {c.why}")
    return "\n".join(lines) + "\n"
