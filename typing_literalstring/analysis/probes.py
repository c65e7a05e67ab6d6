"""What no signature says, asked in the tightened run itself: shells started through argument
lists (LS202: a probe that takes only a LiteralString wraps each script; see
``specs.argv_shell``) and logging calls whose formatting arguments are all ``*args`` (LS301: one
more argument makes the checker choose the overload that asks for a literal message).

The same copies reveal the parts and the callee of every SQL, shell, template and markup call
(``sink_outcomes``), which gives each such call its outcome.

The files holding such calls are checked as instrumented copies in their originals' place
(``Runs.run_in_place``), in the same checker run as every other file.  The copy only inserts
text, so each message maps back to the original's line and column (``Inserted.original``);
the probes' messages become findings here, the others go on to be classified like any other.

For a checker whose "no overload matches" does not list the arguments' types (ty), the command
of each ``shell=True`` call is revealed in the same copies (``reveal_type(cmd)``): a command of
type ``str`` is one our shell overloads refused (``own_sinks.shell_command_verdict``), where an
untightened run had to tell before.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Dict, Iterable, Iterator, Sequence, Tuple

from typing_literalstring.analysis import callees, project_defs, sink_looks, unverified, wrappers
from typing_literalstring.analysis.findings import Finding, source_line
from typing_literalstring.analysis.literal_errors import (
    is_about_literal_string,
    is_no_matching_overload,
)
from typing_literalstring.analysis.parsed import Parsed, parse_all
from typing_literalstring.analysis.runs import Runs, inside
from typing_literalstring.checkers import Diagnostic
from typing_literalstring.core.source_edits import Inserted, byte_offsets, insert_at
from typing_literalstring.specs import argv_shell
from typing_literalstring.specs.sinks import (
    LOGGING,
    MARKUP,
    SHELL,
    SHELL_ARGV,
    SINK_NAMES,
    SINK_NAMES_IF_IMPORTED,
    SQL,
    TEMPLATE,
    callee_name,
    one_more_argument,
    only_unpacked_arguments,
)

# A logging call with a starred argument, as text: the files without one need no syntax tree
# for this probe (``only_unpacked_arguments`` decides on the tree).
_UNPACKED_LOGGING = re.compile(
    r"\b(?:debug|info|warning|warn|error|exception|critical|fatal|log)\s*\([^()]*\*(?!\*)"
)


# `shell=` given anything but False, as text.
_SHELL_KEYWORD = re.compile(r"\bshell\s*=\s*(?!False\b)")
# A call of an SQL, shell, template or markup sink's name, as text: its outcome is asked
# (sink_outcomes.py).  The shell functions that take `shell=` are found by _SHELL_KEYWORD.
_SINK_CALL = re.compile(
    r"\b(?:"
    + "|".join(
        sorted(
            name for name, (rule, _) in SINK_NAMES.items() if rule in (SQL, SHELL, TEMPLATE, MARKUP)
        )
    )
    + r")\s*\("
)


# The sinks named by a common word, in a file that names their package (sinks.py).
_SINK_CALL_IF_IMPORTED = {
    package: re.compile(
        r"\b(?:"
        + "|".join(sorted(n for n, (p, _) in SINK_NAMES_IF_IMPORTED.items() if p == package))
        + r")\s*\("
    )
    for package, _ in SINK_NAMES_IF_IMPORTED.values()
}


def may_need_probes(text: str) -> bool:
    """Whether a file may hold a call that only a probe can judge (cheap: on its text)."""
    return (
        any(
            package in text and pattern.search(text) is not None
            for package, pattern in _SINK_CALL_IF_IMPORTED.items()
        )
        or argv_shell.may_start_a_shell(text)
        or _UNPACKED_LOGGING.search(text) is not None
        or _SINK_CALL.search(text) is not None
        or _SHELL_KEYWORD.search(text) is not None
    )


def with_wrappers(
    paths: Iterable[Path], roots: Sequence[Path]
) -> tuple[dict[str, Parsed], wrappers.Wrappers, project_defs.Project]:
    """The files that need probes, parsed, and the project's own sink wrappers
    (``wrappers``): defined where a sink is called, then in the files that call a wrapper,
    whose calls of them need probes too, until no file calls a new one.  And the project's
    definitions (``project_defs``), which tell its own ``SQL`` or ``run`` from a sink."""
    paths = list(paths)
    project = project_defs.Project(paths, roots)
    texts: dict[Path, str] = {}
    for path in paths:
        try:
            texts[path] = path.read_bytes().decode("latin-1")
        except OSError:
            continue  # the parse reports it
    chosen = [p for p, text in texts.items() if may_need_probes(text)]
    parsed = parse_all(chosen, roots)[0]
    found = wrappers.infer({p: e.tree for p, e in parsed.items()}, project)
    for _ in range(4):
        names = set(found)
        more = [
            p
            for p, text in texts.items()
            if str(p.resolve()) not in parsed and wrappers.calling(text, names)
        ]
        if not more:
            break
        parsed.update(parse_all(more, roots)[0])
        found = wrappers.infer({p: e.tree for p, e in parsed.items()}, project)
    return parsed, found, project


def shell_commands(calls: Iterable[ast.Call]) -> list[tuple[ast.Call, ast.expr]]:
    """The shell sink calls given ``shell=`` anything but ``False``, with their command."""
    found: list[tuple[ast.Call, ast.expr]] = []
    for call in calls:
        name = callee_name(call.func)
        if name not in SINK_NAMES or SINK_NAMES[name][0] is not SHELL:
            continue
        shell = next((k.value for k in call.keywords if k.arg == "shell"), None)
        if shell is None or (isinstance(shell, ast.Constant) and shell.value is False):
            continue
        given = [a for a in call.args[:1] if not isinstance(a, ast.Starred)]
        command = (
            given[0] if given else next((k.value for k in call.keywords if k.arg == "args"), None)
        )
        if command is not None:
            found.append((call, command))
    return found


@dataclass(frozen=True)
class ProbedCopy:
    original: str  # the file's path, as the checker's messages name it
    source: str  # the original's text
    shells: list[argv_shell.ShellInArgv]
    unpacked: list[ast.Call]  # logging calls whose formatting arguments are all `*args`
    copy: Inserted
    # Read in a newer grammar than ours: the copy is made from the text as we parse it
    # (sources.Source.parsable), which the checker must not read in the original's place.
    rewritten: bool = False
    # shell=True calls whose command is revealed, with that command.
    commands: Sequence[tuple[ast.Call, ast.expr]] = ()
    # The SQL, shell, template and markup calls whose parts are revealed (sink_outcomes.py),
    # and the file's tagged nodes, which get their types from the run.
    looks: Sequence[sink_looks.Look] = ()
    tagged: unverified.Instrumented | None = None

    def needs_a_run(self) -> bool:
        """Whether the copy asks anything that only a run can answer: revealed commands only
        settle errors of the run they are in."""
        return bool(self.shells or self.unpacked)


def probed_copy(
    path: str,
    source: str,
    tree: ast.Module,
    commands: bool = False,
    function: bool = False,
    wrapping: wrappers.Wrappers | None = None,
    project: project_defs.Project | None = None,
) -> ProbedCopy | None:
    """The copy of one file with its probes, or None when it needs none.  ``commands``: reveal
    the command of each shell=True call; ``function``: reveal sink calls' parts with the probe
    module's function (mypy with our plugin), not with ``reveal_type``; ``wrapping``: the
    project's own sink wrappers, whose calls are revealed too; ``project``: its definitions
    (``project_defs``)."""
    calls = callees.Sites(tree).calls
    # A probe goes where the syntax tree places its node, so only where that is the node.
    unpacked = [
        c
        for c in calls
        if (a := only_unpacked_arguments(c)) is not None and _spans_itself(source, a.value)
    ]
    shells = [s for s in argv_shell.find(tree, source) if _spans_itself(source, s.script)]
    revealed = [c for c in shell_commands(calls) if _spans_itself(source, c[1])] if commands else []
    tagged = unverified.prepared(source, tree)
    own = project.callees(path, tree) if project is not None else None
    looks = sink_looks.looks(tree, calls, tagged, wrapping, own)
    if not shells and not unpacked and not revealed and not looks:
        return None
    insertions = one_more_argument(source, unpacked)
    if shells:
        insertions += argv_shell.probe_insertions(source, tree, shells)[0]
    offsets = byte_offsets(source)
    for _, command in revealed:
        start = offsets[command.lineno - 1] + command.col_offset
        end = offsets[(command.end_lineno or command.lineno) - 1] + (command.end_col_offset or 0)
        insertions += [(start, b"reveal_type("), (end, b")")]
    # On the file's bytes: ast.get_source_segment splits the whole file on every call, which
    # made the probes cost 3 s on sqlite-utils (77 sink calls).
    data, line_offsets = tagged.encoded
    wrapped = [look for look in looks if unverified.same_expression(data, line_offsets, look.call)]
    opens, closes = sink_looks.probe_insertions(source, wrapped, tagged, function)
    imports = [argv_shell.probe_import(source, tree, argv_shell.REVEAL_FUNCTION)[0]]
    copy = insert_at(
        source, [*(imports if function and wrapped else []), *opens, *insertions, *closes]
    )
    try:
        ast.parse(copy.text)
    except SyntaxError:
        # Never a broken copy: its sink calls stay unrevealed (counted so), the rest is asked.
        copy = insert_at(source, insertions)
    return ProbedCopy(
        path, source, shells, unpacked, copy, commands=revealed, looks=looks, tagged=tagged
    )


def _spans_itself(source: str, node: ast.expr) -> bool:
    """Whether the text at ``node``'s position is ``node``: Python 3.8 places the nodes inside
    an f-string two columns off (`f"{run(cmd, shell=True)}"`), and a probe inserted there
    would break the copy; such a command is left to the untightened comparison."""
    segment = ast.get_source_segment(source, node)
    if segment is None:
        return False
    try:
        parsed = ast.parse(f"({segment})", mode="eval").body
    except SyntaxError:
        return False
    return ast.dump(parsed) == ast.dump(node)


def probe_stub(runs: Runs) -> Path:
    """The folder holding the stub of the LS202 probe (``argv_shell.PROBE_STUB``)."""
    probe = runs.workdir / "probe"
    probe.mkdir(parents=True, exist_ok=True)
    (probe / f"{argv_shell.PROBE_MODULE}.pyi").write_text(argv_shell.PROBE_STUB, "utf-8")
    return probe


# ty: "Revealed type: `str`".
_REVEALED = re.compile(r"Revealed type: `(?P<type>.*)`$")

# A shell call's place, (path, line, column) as ``SinkCall`` has it -> its command's type.
Commands = Dict[Tuple[str, int, int], str]


# A file's path -> the types its sink calls' parts were revealed with, by tag.
Revealed = Dict[str, Dict[int, str]]


def split(
    diagnostics: Iterable[Diagnostic], probed: dict[str, ProbedCopy], checker: str
) -> tuple[list[Diagnostic], list[Finding], Commands, Revealed]:
    """The run's messages at the originals' positions, without the probes' own; the probes'
    findings; the revealed type of each probed shell command; and the revealed types of the
    sink calls' parts (``sink_outcomes``)."""
    kept: list[Diagnostic] = []
    findings: dict[tuple[str, int], Finding] = {}
    commands: Commands = {}
    types: Revealed = {}
    for diagnostic in diagnostics:
        copied = probed.get(diagnostic.path)
        if copied is None:
            kept.append(diagnostic)
            continue
        if argv_shell.PROBE_FUNCTION in diagnostic.message:
            where = copied.copy.original(diagnostic.line, diagnostic.column, inside=True)
            if diagnostic.severity == "error" and where is not None:
                for finding in _shell_findings(copied, where[0], diagnostic):
                    findings[(finding.path, finding.line)] = finding
            continue
        where = copied.copy.original(diagnostic.line, diagnostic.column)
        if where is None:
            # About the probes themselves: a sink call's revealed part, else their import, an
            # unimported reveal_type, a part's error that the original repeats.
            if copied.looks and diagnostic.severity != "error":
                found = unverified.revealed_types([diagnostic.message])
                types.setdefault(copied.original, {}).update(found)
            continue
        revealed = _revealed_command(copied, where, diagnostic)
        if revealed is not None:
            commands[revealed[0]] = revealed[1]
            continue
        moved = replace(diagnostic, line=where[0], column=where[1])
        call = _unpacked_call(copied, moved, checker)
        if call is not None:
            finding = _unpacked_logging_finding(copied, call, moved)
            findings[(finding.path, finding.line)] = finding
        else:
            kept.append(moved)
    return sorted(kept), [findings[key] for key in sorted(findings)], commands, types


def _revealed_command(
    copied: ProbedCopy, where: tuple[int, int], diagnostic: Diagnostic
) -> tuple[tuple[str, int, int], str] | None:
    """The shell call and its command's type, when ``diagnostic`` reveals a probed command."""
    revealed = _REVEALED.search(diagnostic.message)
    if revealed is None or diagnostic.severity == "error":
        return None
    for call, command in copied.commands:
        if (command.lineno, command.col_offset + 1) == where:
            return (copied.original, call.lineno, call.col_offset + 1), revealed["type"]
    return None


def _unpacked_call(copied: ProbedCopy, diagnostic: Diagnostic, checker: str) -> ast.Call | None:
    """The logging call with only ``*args`` that an error about its message falls in."""
    if diagnostic.severity != "error" or not (
        is_about_literal_string(diagnostic, checker)
        # zuban says only that no overload takes `(str, *list[int], int)`.
        or is_no_matching_overload(diagnostic)
    ):
        return None
    for call in copied.unpacked:
        if call.lineno <= diagnostic.line <= (call.end_lineno or call.lineno):
            return call
    return None


def _shell_findings(copied: ProbedCopy, line: int, diagnostic: Diagnostic) -> Iterator[Finding]:
    # The probe wraps the script, which may be added to the list lines before the call.
    for shell in copied.shells:
        script, call = shell.script, shell.call
        if not script.lineno <= line <= (script.end_lineno or script.lineno):
            continue
        inside = call.lineno <= script.lineno <= (call.end_lineno or call.lineno)
        yield Finding(
            copied.original,
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
    copied: ProbedCopy, call: ast.Call, diagnostic: Diagnostic
) -> Finding:
    name = callee_name(call.func) or ""
    return Finding(
        copied.original,
        call.lineno,
        call.col_offset + 1,
        LOGGING,
        f"{SINK_NAMES[name][1]}, formatting arguments passed as *args",
        ast.get_source_segment(copied.source, call.func) or "",
        source_line(copied.source, call.lineno),
        (diagnostic.message,),
    )


def instrumented(
    parsed: dict[str, Parsed],
    commands: bool = False,
    function: bool = False,
    wrapping: wrappers.Wrappers | None = None,
    project: project_defs.Project | None = None,
) -> dict[str, ProbedCopy]:
    """The copies with probes of the files that need them (path -> copy); ``commands``: with
    the shell commands revealed; ``function``, ``wrapping``: see ``probed_copy``."""
    copies: dict[str, ProbedCopy] = {}
    for path, entry in parsed.items():
        if (
            entry.read is not None
            and not may_need_probes(entry.read.text)
            and not wrappers.calling(entry.read.text, wrapping or {})
        ):
            continue
        copied = probed_copy(path, entry.source, entry.tree, commands, function, wrapping, project)
        if copied is not None:
            newer = entry.read is not None and entry.read.needs is not None
            copies[path] = replace(copied, rewritten=newer)
    return copies


def in_place(runs: Runs, copied: ProbedCopy, root: Path) -> bool:
    """Whether the copy can be checked in its original's place, in the tightened run: always
    for a checker that reads shadow files; for the others (a mirror of the root), when the
    file is in the root.  Never a ``rewritten`` one."""
    if copied.rewritten:
        return False
    return runs.checker.reads_shadow_files or inside(Path(copied.original), root)


def findings_apart(
    runs: Runs, copies: dict[str, ProbedCopy], search: list[Path], overlay: Path
) -> list[Finding]:
    """The probes' findings from a run of their own, for the copies that cannot be checked in
    place (``in_place``): each copy in a folder of its own, beside nothing."""
    copies = {p: c for p, c in copies.items() if c.needs_a_run()}
    if not copies:
        return []
    renamed: dict[str, ProbedCopy] = {}
    for number, (path, copied) in enumerate(sorted(copies.items())):
        copy = runs.workdir / "instrumented" / str(number) / Path(path).name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(copied.copy.text, encoding="utf-8")
        renamed[str(copy.resolve())] = copied
    # Each check's copies sit in a new work folder: mypy's kept incremental cache would
    # replay an unchanged copy's errors under the path of the check that cached it (as it did
    # for --report-any's), so these runs keep no cache across checks.
    runs = replace(runs, incremental=None)
    result = runs.run(renamed, "argv-run", [probe_stub(runs), *search], overlay)
    errors = [d for d in result.diagnostics if d.path in renamed]
    return split(errors, renamed, runs.checker.name)[1]
