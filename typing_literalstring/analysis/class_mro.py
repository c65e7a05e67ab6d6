"""The method resolution order of a class, computed as Python computes it (C3).

``project_defs`` resolves ``self.m()``, ``cls.m()`` and ``super().m()`` by walking a class's
linearization: the project's classes are expanded through their own bases, and a class of
another package (whose bases are out of view) stands as itself.  ``super().get_detail_value()``
in a flask-admin view names the base's method (flask-admin's), never the view's own override,
which the name alone had found (issue 44).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable, Dict, Generic, Hashable, List, Optional, Sequence, TypeVar, Union

_M = TypeVar("_M")
_Function = Union[ast.FunctionDef, ast.AsyncFunctionDef]
# A package whose classes define none of the methods asked about (`object`).
BUILTINS = "builtins"


@dataclass(frozen=True)
class Ancestor(Generic[_M]):
    """A class on a method resolution order: the project's (``cls``, in ``module``), another
    package's (``package``), or neither, a base out of view."""

    key: Hashable  # which class it is, for C3's merge
    module: _M | None = None
    cls: ast.ClassDef | None = None
    package: str = ""


def merge(sequences: Sequence[Sequence[Hashable]]) -> list[Hashable] | None:
    """C3's merge: the linearizations of the bases and the list of the bases, merged so that
    each keeps its order; None when no order does (Python refuses such a class)."""
    pending = [list(s) for s in sequences if s]
    merged: list[Hashable] = []
    while pending:
        for sequence in pending:
            head = sequence[0]
            if not any(head in other[1:] for other in pending):
                break
        else:
            return None  # "Cannot create a consistent method resolution order"
        merged.append(head)
        pending = [[k for k in s if k != head] for s in pending]
        pending = [s for s in pending if s]
    return merged


Orders = Dict[Hashable, Optional[List[Ancestor[_M]]]]


def linearize(
    root: Ancestor[_M],
    bases: Callable[[Ancestor[_M]], list[Ancestor[_M]]],
    known: Orders[_M],
    depth: int = 0,
    deepest: int = 6,
) -> list[Ancestor[_M]] | None:
    """``root``'s method resolution order, expanding each of the project's classes through
    ``bases``; None when it has none (a cycle of bases, an inconsistent order, too deep).
    ``known``: the orders found so far, by key."""
    if root.key in known:
        return known[root.key]
    known[root.key] = None  # a cycle of bases ends here
    order: list[Ancestor[_M]] | None = None
    if depth <= deepest and root.cls is not None:
        direct = bases(root)
        sequences: list[list[Ancestor[_M]]] = []
        for base in direct:
            inherited = (
                [base] if base.cls is None else linearize(base, bases, known, depth + 1, deepest)
            )
            if inherited is None:
                break
            sequences.append(inherited)
        else:
            by_key = {a.key: a for s in sequences for a in s}
            merged = merge([[a.key for a in s] for s in [*sequences, direct]])
            if merged is not None:
                order = [root, *(by_key[k] for k in merged)]
    known[root.key] = order
    return order


def first_definition(
    order: Sequence[Ancestor[_M]], name: str, assigns: Callable[[ast.stmt, str], bool]
) -> tuple[Ancestor[_M], _Function] | str | None:
    """The first definition of method ``name`` along ``order``, with its class: the
    project's when no class of another package or out of view comes before it (either may
    define it too); else the first other package's name, when only its classes may; None
    when a base out of view may, a class assigns the name, or nothing defines it."""
    outside = ""
    unknown = False
    for ancestor in order:
        if ancestor.cls is None:
            if ancestor.package == BUILTINS:
                continue
            if ancestor.package:
                outside = outside or ancestor.package
            else:
                unknown = True
            continue
        for item in ancestor.cls.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == name:
                return None if outside or unknown else (ancestor, item)
            if assigns(item, name):
                return None  # `run = something`: a value
    return None if unknown or not outside else outside
