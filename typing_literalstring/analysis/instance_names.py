"""What the syntax of one binding does not show about a name or an attribute: whether the name
is declared ``global``/``nonlocal`` or bound by ``:=``, ``except ... as`` or a ``case`` capture,
and which attributes a module stores on some object.

``project_defs.Callees`` resolves ``x.m()`` to the method of the project class ``x`` was made
from only when neither may put something else there (an instance's own attribute comes before
its class's method).
"""

from __future__ import annotations

import ast
import weakref

# Nodes that bind a name of theirs (``except E as name``, ``case Point() as name``).
_NAMING = ("ExceptHandler", "MatchAs", "MatchStar")


def declared_elsewhere(scope: ast.AST, name: str) -> bool:
    """Whether ``name`` is declared global or nonlocal in ``scope``, or bound there in a way
    no assignment statement shows (``:=``, ``except ... as``, a ``case`` capture)."""
    return any(
        (isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names)
        or (isinstance(n, ast.NamedExpr) and n.target.id == name)
        or (type(n).__name__ in _NAMING and getattr(n, "name", None) == name)
        or (type(n).__name__ == "MatchMapping" and getattr(n, "rest", None) == name)
        for n in ast.walk(scope)
    )


_STORED: weakref.WeakKeyDictionary[ast.Module, frozenset[str]] = weakref.WeakKeyDictionary()


def stored_attributes(tree: ast.Module) -> frozenset[str]:
    """The attributes the module stores on some object, ``x.name = ...`` (an instance's own
    value comes before its class's method): every name ("*" too) where it calls setattr."""
    found = _STORED.get(tree)
    if found is None:
        names = {
            n.attr
            for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, (ast.Store, ast.Del))
        }
        if any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr"
            for n in ast.walk(tree)
        ):
            names.add("*")
        found = _STORED[tree] = frozenset(names)
    return found
