"""What no signature says, asked on instrumented copies: shells started through argument lists
(LS202, the probe wraps each script; see ``specs.argv_shell``) and logging calls whose
formatting arguments are all ``*args`` (LS301)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from typing_literalstring.analysis import (
    callees,
)
from typing_literalstring.analysis.findings import Finding, source_line
from typing_literalstring.analysis.literal_errors import (
    is_about_literal_string,
    is_no_matching_overload,
)
from typing_literalstring.analysis.parsed import Parsed
from typing_literalstring.analysis.runs import Runs, errors_in
from typing_literalstring.checkers import (
    Diagnostic,
)
from typing_literalstring.core import sources
from typing_literalstring.specs import argv_shell
from typing_literalstring.specs.sinks import (
    LOGGING,
    SHELL_ARGV,
    SINK_NAMES,
    callee_name,
    only_unpacked_arguments,
    with_one_more_argument,
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


def probe_stub(runs: Runs) -> Path:
    """The folder holding the stub of the LS202 probe (``argv_shell.PROBE_STUB``)."""
    probe = runs.workdir / "probe"
    probe.mkdir(parents=True, exist_ok=True)
    (probe / f"{argv_shell.PROBE_MODULE}.pyi").write_text(argv_shell.PROBE_STUB, "utf-8")
    return probe


def probed_findings(
    runs: Runs, parsed: dict[str, Parsed], search: list[Path], overlay: Path
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
    result = runs.run(copies, "argv-run", [probe_stub(runs), *search], overlay)
    findings: dict[tuple[str, int], Finding] = {}
    for diagnostic in errors_in(result, set(copies)):
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
            source_line(copied.source, call.lineno),
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
        source_line(copied.source, call.lineno),
        (diagnostic.message,),
    )
