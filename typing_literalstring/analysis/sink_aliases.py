"""Sinks called through a name the module assigns them to.

GitPython 3.1.43 starts its git processes with ``safer_popen(command, shell=shell, ...)``,
where ``git/cmd.py`` assigns ``safer_popen = Popen`` outside Windows (and a function of its
own on Windows).  A sink is found by the name it is called by, so those calls were no sink
call at all: never asked about, never counted, whatever their command.

A module-level assignment of a sink's name to another name (``safer_popen = Popen``,
``run_sql = cursor.execute``, in ``if`` and ``try`` blocks too) makes a call of that name a
candidate, asked about like any other: the checker's answer about the callee decides.  Where
it takes a ``LiteralString``, the call is judged as the sink's.  Where it does not, the call is
no sink call if the value assigned may be something else (an object's method, the project's
own class of a sink's name: ``Look.foreign``), and unverified ("the callee takes str") if it
is the sink itself: GitPython declares ``safer_popen: Callable[..., Popen]``, a type that
takes any command, so no checker can check its calls.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Iterator, Mapping

from typing_literalstring.specs.sinks import SINK_NAMES, callee_name

# An assignment of a sink's name, as text: the file may call the sink by another name
# (``probes.may_need_probes``).
ASSIGNED_SINK = re.compile(
    r"^[ \t]*\w+[ \t]*=[ \t]*(?:[\w.]+\.)?(?:" + "|".join(sorted(SINK_NAMES)) + r")[ \t]*(?:#.*)?$",
    re.M,
)


@dataclass(frozen=True)
class Assigned:
    """A module's name assigned a sink."""

    sink: str  # the sink's name (``Popen``)
    written: str  # the assignment, to name it ("safer_popen = Popen")
    # The assigned value is the sink itself: a name imported from the sink's module or an
    # attribute of that module (``from subprocess import Popen``, ``subprocess.Popen``), not
    # an object's method or the project's own name.  Where the checker types the name so
    # that it takes any text (GitPython declares ``safer_popen: Callable[..., Popen]``), its
    # calls are unverified, not dropped.
    certain: bool


def assigned_sinks(
    tree: ast.Module, names: Mapping[str, tuple[object, str]], imports: Mapping[str, str]
) -> dict[str, Assigned]:
    """The module's names assigned a sink of ``names`` (its sink names, ``sink_names``), given
    what its imports bind (``imports``: name -> qualified name).  A name assigned two sinks, or
    itself a sink's name, is left out (no one sink; judged by its own name)."""
    found: dict[str, Assigned] = {}
    ambiguous: set[str] = set()
    for target, value in _module_assignments(tree.body):
        sink = callee_name(value)
        if sink is None or sink not in names or target in names:
            continue
        if target in found and found[target].sink != sink:
            ambiguous.add(target)
        api = names[sink][1]
        if isinstance(value, ast.Name):
            qualified = imports.get(value.id, "")
        elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
            qualified = f"{imports.get(value.value.id, '')}.{value.attr}"
        else:
            qualified = ""
        found[target] = Assigned(sink, f"{target} = {ast.unparse(value)}", qualified == api)
    return {name: assigned for name, assigned in found.items() if name not in ambiguous}


def _module_assignments(body: list[ast.stmt]) -> Iterator[tuple[str, ast.expr]]:
    """``NAME = name`` and ``NAME = a.b`` at module level, in its ``if`` and ``try`` blocks."""
    for statement in body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, (ast.Name, ast.Attribute))
        ):
            yield statement.targets[0].id, statement.value
        elif isinstance(statement, ast.If):
            yield from _module_assignments(statement.body)
            yield from _module_assignments(statement.orelse)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                yield from _module_assignments(block)
            for handler in statement.handlers:
                yield from _module_assignments(handler.body)
