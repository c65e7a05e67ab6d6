"""Which argument of a sink call carries its text, and what that text is composed of in view.

A sink call's text is its first argument or one of the keywords ``wrapper_calls.TEXT_KEYWORDS``
(``text_argument``), or, out of view, in its ``*args`` or ``**kwargs`` (``unpacked_text``); a
shell function given its command with ``shell=`` has one only where the shell is asked for, or
may be, by a ``**mapping`` that may hold ``shell`` (``shell_mapping``; ``shell_in_view`` when the
function shows it giving the mapping that key).  A text is built in view
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
    mappings = [k.value for k in call.keywords if k.arg is None]
    if not mappings or lacks_keyword(call, "shell", inside):
        return None
    # The one shown to hold it, if any: it decides whether the call is judged (mapped_shells).
    return next((m for m in mappings if shell_in_view(m, inside)), mappings[0])


def shell_in_view(mapping: ast.expr, inside: _Def | None) -> bool:
    """Whether the function ``inside`` shows that the ``**mapping`` may turn on the shell: it
    is a name (the function's own, or its parameter's) that the function builds or changes with
    a "shell" key, ``kwargs["shell"] = ...``, ``dict(..., shell=...)``, ``{"shell": ...}``,
    ``kwargs.setdefault("shell", ...)``, ``kwargs.update(shell=...)`` (ghp-import's
    ``kwargs['shell'] = self.use_shell``).  Otherwise its keys are out of view (pre-commit's
    ``subprocess.Popen(cmd, **kwargs)`` forwarding its own ``**kwargs``, an attribute, a call's
    result): nothing shows that a shell is asked for."""
    if not isinstance(mapping, ast.Name) or inside is None:
        return False
    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    stack: list[ast.AST] = [s for s in inside.body if not isinstance(s, nested)]
    while stack:  # the function's own nodes, not those of functions or classes nested in it
        node = stack.pop()
        if _gives_shell(node, mapping.id):
            return True
        stack += [c for c in ast.iter_child_nodes(node) if not isinstance(c, nested)]
    return False


def _gives_shell(node: ast.AST, name: str) -> bool:
    """Whether ``node`` gives the mapping ``name`` a "shell" key."""

    def named(target: ast.expr) -> bool:
        return isinstance(target, ast.Name) and target.id == name

    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
        return named(node.value) and _is_shell(node.slice)  # kwargs["shell"] = ...
    if isinstance(node, ast.Assign) and any(named(t) for t in node.targets):
        return _holds_shell(node.value)
    if isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and named(node.target):
        return node.value is not None and _holds_shell(node.value)
    if isinstance(node, ast.AugAssign) and named(node.target):
        return isinstance(node.op, ast.BitOr) and _holds_shell(node.value)  # kwargs |= {...}
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if not named(node.func.value):
        return False
    if node.func.attr == "setdefault":
        return bool(node.args) and _is_shell(node.args[0])
    if node.func.attr == "update":
        return any(k.arg == "shell" for k in node.keywords) or any(
            _holds_shell(a) for a in node.args
        )
    return False


def _is_shell(key: ast.AST | None) -> bool:
    if type(key).__name__ == "Index":  # Python 3.8 wraps a subscript's plain index
        key = getattr(key, "value", None)
    return isinstance(key, ast.Constant) and key.value == "shell"


def _holds_shell(value: ast.expr) -> bool:
    """Whether a mapping's value is built with a "shell" key: ``{"shell": ...}``,
    ``dict(..., shell=...)``, ``dict({"shell": ...})``."""
    if isinstance(value, ast.Dict):
        return any(_is_shell(k) for k in value.keys)
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
        return False
    given = any(k.arg == "shell" for k in value.keywords)
    return value.func.id == "dict" and (given or any(_holds_shell(a) for a in value.args))


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
    "shell_in_view",
    "shell_mapping",
    "subprocess_callees",
    "text_argument",
    "unpacked_text",
]
