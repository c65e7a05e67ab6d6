"""The second run of ``--report-any``: each part of type Any made plain ``str``, and where the
checker refuses it.

The copy keeps the file's calls in their order, so the n-th call of the copy, leaving out the
probes, is the n-th of the original.  Shells started through argument lists have no signature
that asks for a literal script; their scripts are wrapped in ``argv_shell``'s probe, as ``check``
does for LS202, so that an Any reaching a script (``["bash", "-lc", "curl " + spec["url"]]``) is
refused too.  The probe's import is the one line the copy adds.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Collection, Sequence

from typing_literalstring.analysis import callees
from typing_literalstring.analysis.any_copies import (
    SUBSTITUTE_CLOSE,
    SUBSTITUTE_OPEN,
    CopyError,
    insert,
    parsed,
)
from typing_literalstring.analysis.literal_errors import (
    is_about_literal_string,
    is_no_matching_overload,
)
from typing_literalstring.analysis.unverified import Instrumented, all_calls
from typing_literalstring.checkers import Diagnostic
from typing_literalstring.specs import argv_shell
from typing_literalstring.specs.sinks import (
    SinkCall,
    callee_name,
    only_unpacked_arguments,
    with_one_more_argument,
)


@dataclass(frozen=True)
class Substituted:
    source: str
    parts: list[ast.expr]  # the parts made plain str
    shells: int  # how many argument-list scripts carry the LS202 probe


def substitute_copy(instrumented: Instrumented, name: str = "") -> Substituted:
    """The copy with each part revealed as Any made plain ``str`` (``str(object=part)``, a
    spelling that tells the probe from the file's own calls), each shell script of an argument
    list probed, and each logging call with only ``*args`` given one more argument."""
    parts = instrumented.any_parts()
    text = insert(instrumented.source, [(p, SUBSTITUTE_OPEN, SUBSTITUTE_CLOSE) for p in parts])
    tree = parsed(text, f"substituting {name}")
    unpacked = [c for c in all_calls(tree) if only_unpacked_arguments(c) is not None]
    if unpacked:  # `log(level, msg, *args)` judged as `check` judges it (LS301)
        text = with_one_more_argument(text, unpacked)
        tree = parsed(text, f"adding an argument to the logging calls of {name}")
    shells = argv_shell.find(tree, text)
    if shells:
        text = argv_shell.instrument(text, tree, shells).source
        parsed(text, f"probing the shell scripts of {name}")
    return Substituted(text, parts, len(shells))


# The function a "no overload matches" message names: pyright 'No overloads for "run"', mypy
# and zuban 'No overload variant of "run"', ty 'function `run`', pyrefly '`subprocess.run`'.
_FUNCTION_NAMED = re.compile(r'[`"]([\w.]+)[`"]')


@dataclass
class Refusal:
    """A call of the original that the checker refused only once its Any parts were str."""

    call: ast.Call
    errors: list[Diagnostic] = field(default_factory=lambda: [])
    arguments: set[int] | None = field(default_factory=lambda: set())  # None: all of them
    scripts: list[ast.expr] = field(default_factory=lambda: [])  # argument-list shell scripts
    overloads_only: bool = True  # every error is "no overload matches"


def _is_probe(call: ast.Call) -> bool:
    """``str(object=part)`` or the LS202 probe: a call the copy adds."""
    if not isinstance(call.func, ast.Name):
        return False
    if call.func.id == argv_shell.PROBE_FUNCTION:
        return True
    return call.func.id == "str" and not call.args and [k.arg for k in call.keywords] == ["object"]


def original_calls(copied: ast.Module) -> list[ast.Call]:
    """The calls of a copy in source order, probes left out: the n-th is the original's n-th."""
    return [c for c in all_calls(copied) if not _is_probe(c)]


class _Placement:
    """Where an error of the copy falls in the original: a call, an argument, a shell script."""

    def __init__(self, copy: Substituted, tree: ast.Module, source: str) -> None:
        copied = ast.parse(copy.source)
        self.sites = callees.Sites(copied, keep=lambda c: not _is_probe(c))
        in_copy, originals = original_calls(copied), all_calls(tree)
        if len(in_copy) != len(originals):
            raise CopyError(
                "the --report-any copy has other calls than the original; please report this "
                "bug of typing-literalstring with the file"
            )
        self.original = dict(zip(map(id, in_copy), originals))
        self.shells: list[tuple[argv_shell.ShellInArgv, argv_shell.ShellInArgv]] = []
        if copy.shells:
            copied_shells = argv_shell.find(copied, copy.source)
            shells = argv_shell.find(tree, source)
            if len(copied_shells) != len(shells):
                raise CopyError(
                    "the --report-any copy finds other shells in argument lists than the "
                    "original; please report this bug of typing-literalstring with the file"
                )
            self.shells = list(zip(copied_shells, shells))

    def script(self, d: Diagnostic) -> argv_shell.ShellInArgv | None:
        for copied, shell in self.shells:
            if callees.contains(copied.script, d.line, d.column):
                return shell
        return None

    def call(self, d: Diagnostic, hint: str | None) -> tuple[ast.Call | None, int | None]:
        site = self.sites.at(d.line, d.column, hint).call
        if site is None:
            return None, None
        given = [*site.args, *(k.value for k in site.keywords)]
        argument = next(
            (i for i, a in enumerate(given) if callees.contains(a, d.line, d.column)), None
        )
        return self.original.get(id(site)), argument


def refusals(
    copy: Substituted,
    tree: ast.Module,
    source: str,
    errors: Sequence[tuple[Diagnostic, str | None]],
    *,
    checker: str,
    sink_calls: Sequence[SinkCall],
    refused_before: Collection[int],
) -> list[Refusal]:
    """The original's calls that the copy's ``errors`` (each with ``check``'s callee hint)
    refuse and the tightened run did not (``refused_before``: id() of those calls)."""
    place = _Placement(copy, tree, source)
    found: dict[int, Refusal] = {}
    for d, hint in errors:
        if argv_shell.PROBE_FUNCTION in d.message:
            shell = place.script(d)
            if shell is not None and id(shell.call) not in refused_before:
                refusal = found.setdefault(id(shell.call), Refusal(shell.call))
                refusal.errors.append(d)
                refusal.scripts.append(shell.script)
                refusal.overloads_only = False
            continue
        call, argument = place.call(d, hint)
        if call is None or id(call) in refused_before:
            continue
        about = is_about_literal_string(d, checker)
        if not about:
            at_sink = any(
                (c.line, c.column) == (call.lineno, call.col_offset + 1) for c in sink_calls
            )
            if not (at_sink and is_no_matching_overload(d)):
                continue
            named = _FUNCTION_NAMED.search(d.message)
            if named is not None and named[1].rsplit(".", 1)[-1] != callee_name(call.func):
                continue  # about a call inside the part (`os.path.normpath(unknown)`)
            # "No overload matches" says not which argument: the sink's text is meant.
            argument = text_argument(call)
        refusal = found.setdefault(id(call), Refusal(call))
        refusal.errors.append(d)
        refusal.overloads_only &= not about
        if refusal.arguments is not None:
            refusal.arguments = None if argument is None else {*refusal.arguments, argument}
    return [found[id(c)] for c in all_calls(tree) if id(c) in found]


def text_argument(call: ast.Call) -> int:
    """The index (keywords after the positional ones) of the argument that carries a sink's
    text: the message of ``log(level, msg)``, else the first."""
    for index, keyword in enumerate(call.keywords, len(call.args)):
        if keyword.arg in ("sql", "args", "cmd", "command", "msg"):
            return index
    return 1 if callee_name(call.func) == "log" else 0


def reported_parts(copy: Substituted, found: Instrumented, refusal: Refusal) -> list[ast.expr]:
    """The substituted parts that the refusal is about; none when it is not about any of them
    (a name bound in another function, or "no overload matches" with a part elsewhere)."""
    in_arguments: set[int] = set()
    for index, part in found.parts.get(id(refusal.call), []):
        if refusal.arguments is None or index in refusal.arguments:
            in_arguments.update(map(id, ast.walk(part)))
    of_call = {id(n) for _, part in found.parts.get(id(refusal.call), []) for n in ast.walk(part)}
    in_scripts: set[int] = set()
    for script in refusal.scripts:
        for node in ast.walk(script):
            if isinstance(node, ast.expr):
                for part in found.through_names(node):
                    in_scripts.update(map(id, ast.walk(part)))
    if refusal.overloads_only and any(
        id(p) in of_call and id(p) not in in_arguments for p in copy.parts
    ):
        return []
    return [p for p in copy.parts if id(p) in in_arguments or id(p) in in_scripts]
