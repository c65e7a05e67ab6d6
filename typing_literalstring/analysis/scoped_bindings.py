"""Where a name got its value: the scopes around each name, and their bindings in view.

A function or the module is a ``Scope``; its own assignments, annotated assignments and ``for``
targets are its ``bindings``, and a name's ``binding_of`` is the last one on a line before its
use, innermost scope first, or the function's parameter.  The analysis follows a name to the
value last assigned to it with these (``unverified``: the parts a text is composed of and where
an Any comes from; ``wrappers``, ``flow``, the sink outcomes).
"""

from __future__ import annotations

import ast
import functools
import weakref
from dataclasses import dataclass
from typing import Iterator, Sequence


class Scope:
    """A function or the module, and the bindings of its own names (found once, on first use:
    asking the walk again for each name made a 20 000-line project take minutes)."""

    def __init__(self, node: ast.AST, body: list[ast.stmt]) -> None:
        self.node = node
        self.body = body

    @functools.cached_property
    def bindings(self) -> dict[str, list[Binding]]:
        """Each name's assignments and ``for`` targets, in the order of their lines."""
        found: dict[str, list[Binding]] = {}
        for node in _own_nodes(self):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found.setdefault(target.id, []).append(
                            Binding("assigned", node.lineno, node.value)
                        )
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and node.value is not None
            ):
                found.setdefault(node.target.id, []).append(
                    Binding("assigned", node.lineno, node.value, node.annotation)
                )
            elif isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.target, ast.Name):
                found.setdefault(node.target.id, []).append(
                    Binding("iterated", node.lineno, node.iter)
                )
        for bindings in found.values():
            bindings.sort(key=lambda b: b.line)
        return found


def _own_nodes(scope: Scope) -> Iterator[ast.AST]:
    """The scope's nodes, not those of functions and classes nested in it."""
    stack: list[ast.AST] = list(reversed(scope.body))
    while stack:
        node = stack.pop()
        yield node
        for child in reversed(list(ast.iter_child_nodes(node))):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stack.append(child)


@dataclass(frozen=True)
class Binding:
    """Where a name got its value: an assignment, a ``for`` target, or a parameter."""

    kind: str  # "assigned", "iterated", "parameter"
    line: int
    value: ast.expr | None  # the assigned value or the iterated object
    annotation: ast.expr | None = None  # a parameter's


def binding_of(name: ast.Name, scopes: Sequence[Scope]) -> Binding | None:
    """The last binding of ``name`` on a line before it is used, in its own scope (``scopes``:
    innermost first); a parameter when nothing in the body binds it first."""
    for scope in scopes:
        earlier = [b for b in scope.bindings.get(name.id, []) if b.line < name.lineno]
        if earlier:
            return earlier[-1]
        if isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = scope.node.args
            for argument in [
                *arguments.posonlyargs,
                *arguments.args,
                *arguments.kwonlyargs,
                *([arguments.vararg] if arguments.vararg else []),
                *([arguments.kwarg] if arguments.kwarg else []),
            ]:
                if argument.arg == name.id:
                    return Binding("parameter", scope.node.lineno, None, argument.annotation)
    return None


_SCOPES: weakref.WeakKeyDictionary[ast.Module, dict[int, list[Scope]]] = weakref.WeakKeyDictionary()


def scopes_at(tree: ast.Module) -> dict[int, list[Scope]]:
    """id(name) -> the scopes around it, innermost first, for every name in the file; found
    once while the tree lives (the wrappers and the probes both ask)."""
    found = _SCOPES.get(tree)
    if found is None:
        found = _SCOPES[tree] = _scopes_at(tree)
    return found


def _scopes_at(tree: ast.Module) -> dict[int, list[Scope]]:
    out: dict[int, list[Scope]] = {}

    def visit(node: ast.AST, scopes: list[Scope]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, [Scope(child, child.body), *scopes])
            elif isinstance(child, ast.Name):
                out[id(child)] = scopes
            else:
                visit(child, scopes)

    visit(tree, [Scope(tree, tree.body)])
    return out
