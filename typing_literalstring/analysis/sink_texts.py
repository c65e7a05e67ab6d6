"""Which argument of a sink call carries its text, and what that text is composed of in view.

A sink call's text is its first argument or one of the keywords ``wrapper_calls.TEXT_KEYWORDS``
(``text_argument``), or, out of view, in its ``*args`` or ``**kwargs`` (``unpacked_text``); a
shell function given its command with ``shell=`` has one only where the shell is asked for, or
may be, by a ``**mapping`` that may hold ``shell`` (``shell_mapping``).  A text is built in view
when it is an f-string, ``%``, ``format``, ``+`` or ``join`` (``is_composition``), or a name
last assigned one (``composed_in_view``), whose literal pieces are the family's own words
(``literal_pieces``).  ``sink_looks`` makes each call's ``Look`` of these.
"""

from __future__ import annotations

import ast
from typing import Union

from typing_literalstring.analysis.callees import dotted_name
from typing_literalstring.analysis.scoped_bindings import binding_of
from typing_literalstring.analysis.statements import all_nodes
from typing_literalstring.analysis.unverified import Instrumented
from typing_literalstring.analysis.wrapper_calls import TEXT_KEYWORDS, lacks_keyword
from typing_literalstring.specs.sinks import SUBPROCESS_FUNCTIONS

# Functions given their command with `shell=`: the others take it as their first argument.
_SHELL_KEYWORD_FUNCTIONS = frozenset(SUBPROCESS_FUNCTIONS)

_Def = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def subprocess_callees(tree: ast.Module) -> frozenset[str]:
    """How the module names subprocess's functions given ``shell=``, imported anywhere in it:
    ``subprocess.run``, ``sp.Popen`` after ``import subprocess as sp``, ``Popen`` after ``from
    subprocess import Popen``.  Only a call named so may have its shell turned on by a
    mapping: ``runner.run(command, **kwargs)`` is invoke's or fabric's, and celery's
    ``sig.run(args, **options)`` its own, whatever their name says."""
    found: set[str] = set()
    for node in all_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "subprocess":
                    found.update(f"{alias.asname or alias.name}.{f}" for f in SUBPROCESS_FUNCTIONS)
        elif isinstance(node, ast.ImportFrom) and node.module == "subprocess" and not node.level:
            found.update(a.asname or a.name for a in node.names if a.name in SUBPROCESS_FUNCTIONS)
    return frozenset(found)


def shell_mapping(
    call: ast.Call, inside: _Def | None, subprocess_named: frozenset[str]
) -> ast.expr | None:
    """The ``**mapping`` that may turn on the shell of a call of subprocess's that gives no
    ``shell=`` itself (named as ``subprocess_named`` says: ``subprocess_callees``):
    ghp-import's ``sp.Popen(self.cmd, **kwargs)`` after ``kwargs['shell'] = self.use_shell``.
    None for a mapping the function ``inside`` builds itself and never gives the keyword
    (``wrapper_calls.lacks_keyword``): no shell there."""
    if ".".join(dotted_name(call.func) or ()) not in subprocess_named:
        return None
    if any(k.arg == "shell" for k in call.keywords):
        return None
    mapping = next((k.value for k in call.keywords if k.arg is None), None)
    if mapping is None or lacks_keyword(call, "shell", inside):
        return None
    return mapping


def text_argument(call: ast.Call, name: str, mapping: ast.expr | None = None) -> ast.expr | None:
    """The argument that carries the SQL, the command, the template or the markup.
    ``mapping``: the call's ``**mapping`` that may turn on its shell (``shell_mapping``)."""
    if name in _SHELL_KEYWORD_FUNCTIONS:
        shell = next((k.value for k in call.keywords if k.arg == "shell"), None)
        if isinstance(shell, ast.Constant) and shell.value is False:
            return None  # an argument list without a shell: argv_shell's business
        if shell is None and mapping is None:
            return None  # no shell asked for, none that a mapping may ask for
    first = call.args[0] if call.args else None
    if first is not None:
        return None if isinstance(first, ast.Starred) else first
    for keyword in TEXT_KEYWORDS:
        found = next((k.value for k in call.keywords if k.arg == keyword), None)
        if found is not None:
            return found
    return None


def unpacked_text(call: ast.Call, name: str, inside: _Def | None = None) -> ast.expr | None:
    """The `*args` or `**kwargs` a sink call's text may come in, where no text is in view:
    `Popen(*args, **kwargs)`, `cur.execute(*query)`; None when the call shows it passes none
    (a shell function given `shell=False`, or no `**` that may hold a shell: none at all, or
    only mappings the function ``inside`` builds without one)."""
    if name in _SHELL_KEYWORD_FUNCTIONS:
        shell = next((k.value for k in call.keywords if k.arg == "shell"), None)
        if isinstance(shell, ast.Constant) and shell.value is False:
            return None
        unpacked = any(k.arg is None for k in call.keywords)
        if shell is None and (not unpacked or lacks_keyword(call, "shell", inside)):
            return None  # no shell: an argument list's business
        if call.args and not isinstance(call.args[0], ast.Starred):
            return None  # the command is in view: text_argument's
    starred = call.args[0] if call.args and isinstance(call.args[0], ast.Starred) else None
    if starred is not None:
        return starred
    if not call.args and not any(k.arg in TEXT_KEYWORDS for k in call.keywords):
        return next((k.value for k in call.keywords if k.arg is None), None)
    return None


def is_composition(expr: ast.expr) -> bool:
    """Whether ``expr`` builds a string from parts in view."""
    if isinstance(expr, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in expr.values)
    if isinstance(expr, ast.BinOp):
        return isinstance(expr.op, (ast.Add, ast.Mod))
    if isinstance(expr, ast.IfExp):  # `cur if cur else None` is no composition
        return is_composition(expr.body) or is_composition(expr.orelse)
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in ("format", "join")
    )


def composed_in_view(
    argument: ast.expr, instrumented: Instrumented, depth: int = 0
) -> ast.expr | None:
    """The composition the argument is, or the one last assigned in view to its name."""
    if is_composition(argument):
        return argument
    if isinstance(argument, ast.Name) and depth < 3:
        binding = binding_of(argument, instrumented.scopes.get(id(argument), []))
        if binding is not None and binding.kind == "assigned" and binding.value is not None:
            return composed_in_view(binding.value, instrumented, depth + 1)
    return None


def literal_pieces(expr: ast.expr | None) -> str:
    """The literal pieces of a composition, for the family's own words."""
    if expr is None:
        return ""
    return " ".join(
        node.value
        for node in ast.walk(expr)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


__all__ = [
    "composed_in_view",
    "is_composition",
    "literal_pieces",
    "shell_mapping",
    "subprocess_callees",
    "text_argument",
    "unpacked_text",
]
