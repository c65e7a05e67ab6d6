"""The questions of the one tightened run: every sink call's text, asked where it is.

The files holding SQL, shell, template, markup or logging calls, calls of the project's own sink
wrappers (``wrappers``) or shells started through argument lists (``specs.argv_shell``) are
checked as instrumented copies in their originals' place (``Runs.run_in_place``), in the same
checker run as every other file.  Each such call is a ``sink_looks.Look``; the copy asks the
checker about it (``sink_asks.probe_insertions``, in the checker's own way:
``Checker.ask``) and imports the probe module whose stub ``probe_stub`` writes.  The copy only
inserts text (an import line at the top, and questions on the lines of the calls), so each
message maps back to the original's line and column (``Inserted.original``): a message about
what was inserted is an answer (``Checker.answer``), the others go on to be classified like
any other.  ``verdicts`` turns the answers into each call's outcome.

A file in a newer grammar than ours is asked about too: its rewrite (``core.grammar``) keeps
every byte's offset, so the insertions made on the rewrite go into the original text.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Dict, Iterable, Sequence

from typing_literalstring.analysis import (
    callees,
    project_defs,
    sink_asks,
    sink_looks,
    unverified,
    wrapper_calls,
    wrappers,
)
from typing_literalstring.analysis.parsed import Parsed, parse_all
from typing_literalstring.analysis.runs import Runs, inside
from typing_literalstring.analysis.sink_aliases import ASSIGNED_SINK
from typing_literalstring.checkers import Checker, Diagnostic
from typing_literalstring.checkers.asking import Answer, Probe
from typing_literalstring.core.source_edits import Inserted, insert_at
from typing_literalstring.specs import argv_shell
from typing_literalstring.specs.sinks import (
    LOGGING,
    MARKUP,
    SHELL,
    SINK_NAMES,
    SINK_NAMES_IF_IMPORTED,
    SQL,
    TEMPLATE,
)

# `shell=` given anything but False, as text.
_SHELL_KEYWORD = re.compile(r"\bshell\s*=\s*(?!False\b)")
# A call of an SQL, shell, template or markup sink's name, as text: its outcome is asked
# (sink_outcomes.py).  The shell functions that take `shell=` are among the names, so a file
# whose `Popen(cmd, **kwargs)` may get its shell only from the mapping (no `shell=` in its
# text) is probed too (sink_texts.shell_mapping); the syntax tree tells which calls are shells.
_SINK_CALL = re.compile(
    r"\b(?:"
    + "|".join(
        sorted(
            name for name, (rule, _) in SINK_NAMES.items() if rule in (SQL, SHELL, TEMPLATE, MARKUP)
        )
    )
    + r")\s*\("
)
# A logging call whose message is not a plain string literal: a literal one needs no question.
_LOGGING_CALL = re.compile(
    r"\b(?:"
    + "|".join(sorted(name for name, (rule, _) in SINK_NAMES.items() if rule is LOGGING))
    + r""")\s*\(\s*(?![rRuU]?['"])"""
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
        or _SINK_CALL.search(text) is not None
        or ASSIGNED_SINK.search(text) is not None
        or _SHELL_KEYWORD.search(text) is not None
        or _LOGGING_CALL.search(text) is not None
    )


def with_wrappers(
    paths: Iterable[Path], roots: Sequence[Path]
) -> tuple[dict[str, Parsed], wrapper_calls.Wrappers, project_defs.Project]:
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
            if str(p.resolve()) not in parsed and wrapper_calls.calling(text, names)
        ]
        if not more:
            break
        parsed.update(parse_all(more, roots)[0])
        found = wrappers.infer({p: e.tree for p, e in parsed.items()}, project)
    return parsed, found, project


@dataclass(frozen=True)
class ProbedCopy:
    original: str  # the file's path, as the checker's messages name it
    source: str  # the text the looks were found in (a newer grammar's rewrite, if rewritten)
    copy: Inserted
    # The sink calls, wrapper calls and argument-list shells asked about (sink_looks.py),
    # and the file's tagged nodes, which get their types from the run.
    looks: Sequence[sink_looks.Look] = ()
    tagged: unverified.Instrumented | None = None


def probed_copy(
    path: str,
    source: str,
    tree: ast.Module,
    checker: Checker,
    probe: Probe,
    wrapping: wrapper_calls.Wrappers | None = None,
    project: project_defs.Project | None = None,
    profile: str = "default",
    original: str | None = None,
) -> ProbedCopy | None:
    """The copy of one file with its questions, or None when it needs none.  ``wrapping``: the
    project's own sink wrappers, whose calls are asked about too; ``project``: its definitions
    (``project_defs``); ``original``: the file's own text when ``source`` is its rewrite into
    an older grammar (the same offsets)."""
    calls = callees.Sites(tree).calls
    shells = [s for s in argv_shell.find(tree, source) if _spans_itself(source, s.script)]
    tagged = unverified.prepared(source, tree)
    own = project.callees(path, tree) if project is not None else None
    looks = sink_looks.looks(tree, calls, tagged, wrapping, own, profile, shells, path)
    if not looks:
        return None
    # On the file's bytes: ast.get_source_segment splits the whole file on every call, which
    # made the probes cost 3 s on sqlite-utils (77 sink calls).
    data, line_offsets = tagged.encoded
    wrapped = [
        look
        for look in looks
        if unverified.same_expression(data, line_offsets, look.wrap or look.call)
    ]
    opens, closes = sink_asks.probe_insertions(source, wrapped, tagged, checker, probe)
    if not opens and not closes:
        return ProbedCopy(path, source, insert_at(original or source, []), looks, tagged)
    imported = argv_shell.probe_import(source, tree, probe.import_line())[0]
    insertions = [imported, *opens, *closes]
    try:
        ast.parse(insert_at(source, insertions).text)
    except SyntaxError:
        # Never a broken copy: its sink calls stay unanswered (counted unverified).
        insertions = []
    return ProbedCopy(path, source, insert_at(original or source, insertions), looks, tagged)


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


def probe_stub(runs: Runs, probe: Probe) -> Path:
    """The folder holding the probe module's stub (``checkers.asking``)."""
    folder = runs.workdir / "probe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{probe.module}.pyi").write_text(probe.stub(), "utf-8")
    return folder


# A file's path -> its answers, by tag: the types, and the judge's words.
Answers = Dict[str, Dict[int, Answer]]


def split(
    diagnostics: Iterable[Diagnostic],
    probed: dict[str, ProbedCopy],
    checker: Checker,
    probe: Probe,
) -> tuple[list[Diagnostic], Answers, Answers]:
    """The run's messages at the originals' positions, without the answers and the other
    messages about what the copies inserted; the answers about types, and the judge's."""
    kept: list[Diagnostic] = []
    types: Answers = {}
    judged: Answers = {}
    for diagnostic in diagnostics:
        copied = probed.get(diagnostic.path)
        if copied is None:
            kept.append(diagnostic)
            continue
        where = copied.copy.original(diagnostic.line, diagnostic.column)
        if where is None:
            # About the probes themselves: an answer, else their import or a part's error
            # that the original repeats.
            answer = checker.answer(probe, diagnostic)
            if answer is not None:
                into = judged if answer.judged else types
                into.setdefault(copied.original, {})[answer.tag] = answer
            continue
        kept.append(replace(diagnostic, line=where[0], column=where[1]))
    return sorted(kept), types, judged


def instrumented(
    parsed: dict[str, Parsed],
    checker: Checker,
    probe: Probe,
    wrapping: wrapper_calls.Wrappers | None = None,
    project: project_defs.Project | None = None,
    profile: str = "default",
) -> dict[str, ProbedCopy]:
    """The copies with questions of the files that need them (path -> copy); see
    ``probed_copy``."""
    copies: dict[str, ProbedCopy] = {}
    for path, entry in parsed.items():
        if (
            entry.read is not None
            and not may_need_probes(entry.read.text)
            and not wrapper_calls.calling(entry.read.text, wrapping or {})
        ):
            continue
        newer = entry.read is not None and entry.read.needs is not None
        original = entry.read.text if newer and entry.read is not None else None
        copied = probed_copy(
            path, entry.source, entry.tree, checker, probe, wrapping, project, profile, original
        )
        if copied is not None:
            copies[path] = copied
    return copies


def wrappers_called(probed: dict[str, ProbedCopy]) -> tuple[wrapper_calls.Wrapper, ...]:
    """The project's wrappers the copies' calls reach, each once, in the copies' order."""
    return tuple(
        dict.fromkeys(
            look.wrapper
            for _, copied in sorted(probed.items())
            for look in copied.looks
            if look.wrapper is not None
        )
    )


def in_place(runs: Runs, copied: ProbedCopy, root: Path) -> bool:
    """Whether the copy can be checked in its original's place, in the tightened run: always
    for a checker that reads shadow files; for the others (a mirror of the root), when the
    file is in the root."""
    return runs.checker.reads_shadow_files or inside(Path(copied.original), root)


__all__ = [
    "Answers",
    "ProbedCopy",
    "in_place",
    "instrumented",
    "may_need_probes",
    "probe_stub",
    "probed_copy",
    "split",
    "with_wrappers",
    "wrappers_called",
]
