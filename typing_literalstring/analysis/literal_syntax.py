"""Text a sink call receives that the syntax alone shows to be literal, or no sink's at all.

The checker stays the judge of what is literal; these are the few shapes whose literalness
each checker loses and the syntax keeps (``verdicts`` in ``sink_outcomes``): a lookup in a dict
display of literal strings (each checker types it ``str``), an argument list displayed of
literals, a name assigned literal text in view (mypy types ``TABLE = "users"`` as ``str`` while
the module is checked); and the calls that are none of the sinks their name says: a template
compiled on one of Jinja2's sandboxes, markup built in view from escaped text.
"""

from __future__ import annotations

import ast
import re

from typing_literalstring.analysis.scoped_bindings import binding_of
from typing_literalstring.analysis.sink_looks import Look
from typing_literalstring.analysis.sink_texts import is_composition
from typing_literalstring.analysis.unverified import (
    Instrumented,
    composition_parts,
    is_any,
)
from typing_literalstring.analysis.wrapper_functions import imports_a_sandbox
from typing_literalstring.specs import argv_lists
from typing_literalstring.specs.sinks import MARKUP, callee_name

# Jinja2's sandboxes, as each checker writes their type.
_SANDBOX = re.compile(r"\b(?:Immutable)?SandboxedEnvironment\b")

# The functions whose result is escaped HTML (Django, MarkupSafe, the standard library).
_ESCAPES = frozenset(("escape", "conditional_escape", "escape_silent", "format_html"))

# str methods that keep escaped text escaped: pieces of it, cased or trimmed.
_KEEPS_ESCAPED = frozenset(
    ("split", "rsplit", "splitlines", "strip", "lstrip", "rstrip", "lower", "upper")
)


def no_sink_after_all(look: Look, instrumented: Instrumented) -> bool:
    """Whether the call is none of the sinks its name says: a template compiled on one of
    Jinja2's sandboxes (the standard fix, haystack's and llama-cpp-python's), or markup built
    in view from text that was escaped first (djangorestframework's fix of CVE-2024-21520,
    ``mark_safe("<br> " + ", <br>".join(escape(header).split(",")))``)."""
    if look.receiver is not None:
        revealed = instrumented.type_of(look.receiver) or ""
        if (
            _SANDBOX.search(revealed)
            and not is_any(revealed)
            and imports_a_sandbox(instrumented.tree)
        ):
            return True
    return (
        look.rule is MARKUP
        and look.built
        and all(escaped(p, instrumented) for p in composition_parts(look.argument))
    )


def literal_by_lookup(look: Look) -> bool:
    """Whether the text is literal, built in view of literals and lookups in dict displays of
    literal strings, though each checker types such a lookup ``str``: djangorestframework's
    ``mark_safe('<code>%s</code>' % {True: 'true', False: 'false', None: 'null'}[value])``.
    No call but the composition's own ``format`` and ``join`` may run in the call's arguments:
    the checker's findings at a call nested there would be cleared too."""
    argument = look.argument
    if not any(literal_lookup(node) for node in ast.walk(argument)):
        return False
    if not literal_text(argument):
        return False
    others = [
        a for a in [*look.call.args, *(k.value for k in look.call.keywords)] if a is not argument
    ]
    return not any(isinstance(node, ast.Call) for other in others for node in ast.walk(other))


def literal_lookup(node: ast.AST) -> bool:
    """``{...}[key]``: a dict display whose values are all literal strings, indexed by a key
    that runs no code of its own (no call, no walrus)."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Dict):
        return False
    table = node.value
    return (
        bool(table.values)
        # No `**other` merged in (its key is None).
        and all(key is not None and _runs_nothing(key) for key in table.keys)
        and all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in table.values)
        and _runs_nothing(node.slice)
    )


def _runs_nothing(node: ast.AST) -> bool:
    return not any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await)) for n in ast.walk(node))


def literal_text(node: ast.expr) -> bool:
    """Whether ``node`` is literal text composed in view: constants, literal lookups, and
    f-strings, ``+``, ``%``, conditional expressions, ``format`` and ``join`` of those."""
    if isinstance(node, ast.Constant) or literal_lookup(node):
        return True
    if isinstance(node, ast.JoinedStr):
        return all(literal_text(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        spec = node.format_spec
        return literal_text(node.value) and (spec is None or literal_text(spec))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        right = node.right
        if isinstance(node.op, ast.Mod) and isinstance(right, ast.Tuple):
            return literal_text(node.left) and all(literal_text(e) for e in right.elts)
        return literal_text(node.left) and literal_text(right)
    if isinstance(node, ast.IfExp):
        return _runs_nothing(node.test) and literal_text(node.body) and literal_text(node.orelse)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "join")
        and literal_text(node.func.value)
    ):
        values = [*node.args, *(k.value for k in node.keywords)]
        if node.func.attr == "join":
            display = values[0] if len(values) == 1 and not node.keywords else None
            if not isinstance(display, (ast.List, ast.Tuple, ast.Set)):
                return False
            values = list(display.elts)
        return all(literal_text(v) for v in values)
    return False


def escaped(node: ast.expr, instrumented: Instrumented, depth: int = 0) -> bool:
    if depth > 4:
        return False
    if isinstance(node, ast.Call):
        func = node.func
        if callee_name(func) in _ESCAPES:
            return True
        if isinstance(func, ast.Attribute) and func.attr in _KEEPS_ESCAPED:
            return escaped(func.value, instrumented, depth + 1)
        return False
    if isinstance(node, ast.Name):
        binding = binding_of(node, instrumented.scopes.get(id(node), []))
        if binding is not None and binding.kind == "assigned" and binding.value is not None:
            parts = list(composition_parts(binding.value))
            return bool(parts) and all(escaped(p, instrumented, depth + 1) for p in parts)
    return False


def literal_argv(argument: ast.expr) -> bool:
    """Whether the argument is a display (or ``+`` of displays) of literal strings only, which
    each checker types ``list[str]``.  Every item, not only the first: on Windows the shell is
    given the whole list joined into one command line."""
    found = argv_lists.displayed(argument)
    return bool(found) and all(
        bool(sequence)
        and all(isinstance(i, ast.Constant) and isinstance(i.value, str) for i in sequence)
        for sequence in found or ()
    )


def literal_in_view(node: ast.expr, instrumented: Instrumented, depth: int = 0) -> bool:
    """Whether a name holds literal text in view: mypy reveals ``TABLE = "users"`` as ``str``
    while the module is being checked; or the part is a lookup in a dict display of literal
    strings, which each checker types ``str``."""
    if literal_lookup(node):
        return True
    if not isinstance(node, ast.Name) or depth > 3:
        return False
    binding = binding_of(node, instrumented.scopes.get(id(node), []))
    if binding is None or binding.kind != "assigned" or binding.value is None:
        return False
    value = binding.value
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str)
    if literal_lookup(value):
        return True
    parts = list(composition_parts(value))
    return is_composition(value) and all(literal_in_view(p, instrumented, depth + 1) for p in parts)


__all__ = [
    "escaped",
    "literal_argv",
    "literal_by_lookup",
    "literal_in_view",
    "literal_lookup",
    "literal_text",
    "no_sink_after_all",
]
