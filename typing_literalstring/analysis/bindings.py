"""The names a scope binds, read on its syntax tree: what ``project_defs`` follows to tell
which definition a call names."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator, Union

from typing_literalstring.analysis.statements import all_statements

Scope = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef]


@dataclass(frozen=True)
class From:
    """A name bound by ``from module import name``."""

    statement: ast.ImportFrom
    alias: ast.alias


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    arguments = function.args
    names = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    names.update(a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None)
    return names


def bindings(scope: Scope, name: str) -> Iterator[ast.AST | From]:
    """The statements binding ``name`` in ``scope``: definitions, imports (an ``alias`` for
    ``import``, ``(statement, alias)`` for ``from``), and any other binding as itself."""
    for node in all_statements(scope, definitions=False):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                yield node
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.asname or alias.name.split(".")[0]) == name:
                    yield alias
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name != "*" and (alias.asname or alias.name) == name:
                    yield From(node, alias)
        elif assigns(node, name):
            yield node


def assigns(node: ast.AST, name: str) -> bool:
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif (
        isinstance(node, (ast.AnnAssign, ast.AugAssign))
        and (not isinstance(node, ast.AnnAssign) or node.value is not None)
    ) or isinstance(node, (ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
    if (
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and node.value.value is None
    ):
        return False  # `tblib = None` when the import failed: nothing to call
    return any(name in target_names(t) for t in targets)


def target_names(target: ast.expr) -> Iterator[str]:
    """The names an assignment target binds (not ``Xid.__module__``'s ``Xid``)."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for item in target.elts:
            yield from target_names(item)
    elif isinstance(target, ast.Starred):
        yield from target_names(target.value)


def stars(tree: ast.Module) -> Iterator[ast.ImportFrom]:
    for node in all_statements(tree, definitions=False):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            yield node
