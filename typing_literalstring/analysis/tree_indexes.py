"""Indexes of one parsed module, found once while its tree lives: the methods of its classes by
name and the functions and classes around each call.  The callee index (``project_defs``)
asks for them at every call on ``self`` and every call it resolves; walking the tree each time
made check's own analysis cost more than the checker on large files.
"""

from __future__ import annotations

import ast
import weakref
from typing import Union

from typing_literalstring.analysis.statements import all_statements

_Def = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_METHODS: weakref.WeakKeyDictionary[ast.Module, dict[str, list[tuple[str, _Def]]]] = (
    weakref.WeakKeyDictionary()
)
_STACKS: weakref.WeakKeyDictionary[ast.Module, dict[int, tuple[ast.AST, ...]]] = (
    weakref.WeakKeyDictionary()
)


def methods_by_name(tree: ast.Module) -> dict[str, list[tuple[str, _Def]]]:
    """The methods of the module's classes by name, each with its class's name: found once
    while the tree lives (the callee index asks for each call on `self`)."""
    found = _METHODS.get(tree)
    if found is None:
        found = _METHODS[tree] = {}
        for node in all_statements(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        found.setdefault(item.name, []).append((node.name, item))
    return found


def call_stacks(tree: ast.Module) -> dict[int, tuple[ast.AST, ...]]:
    """id() of each call -> the functions and classes around it, outermost first: walked once
    while the tree lives (the sink looks and the wrappers each resolve the file's calls)."""
    found = _STACKS.get(tree)
    if found is None:
        found = _STACKS[tree] = {}
        pending: list[tuple[ast.AST, tuple[ast.AST, ...]]] = [(tree, ())]
        while pending:
            node, stack = pending.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Call):
                    found[id(child)] = stack
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    pending.append((child, (*stack, child)))
                else:
                    pending.append((child, stack))
    return found
