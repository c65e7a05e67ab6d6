"""A definition a specification writes whole (``@replaced``, ``@added``), put into a package's
own module (``.py``) rather than into a stub.

In a stub the specification's text simply replaces the base's definition.  A module is read as
code: a body of ``...`` under a return type is mypy's ``empty-body`` error, overloads without an
implementation are an error in pyright, mypy and zuban, and a second definition of the name is
a redefinition.  So the written definitions stand in an ``if TYPE_CHECKING:`` branch, which
every checker reads (and where mypy asks no body of them), with the original as its ``else``
branch, untouched but indented; overloads get an implementation taking anything, which every
overload is consistent with.  Measured with pyright, basedpyright, mypy, ty, zuban and pyrefly:
each types the calls by the ``TYPE_CHECKING`` branch and reports nothing in the module.
"""

from __future__ import annotations

import ast
from typing import Sequence

from typing_literalstring.specs.stubspec import FunctionSpec

# The name the implementations of written overloads use for Any, imported under it.
_ANY = "_TypingLiteralStringAny"
_CONDITION = "TYPE_CHECKING"


class Written:
    """What one module needs for the definitions written into it."""

    def __init__(self, tree: ast.Module) -> None:
        # Any binding of the name will do: checkers take `if TYPE_CHECKING:` by its name.
        self._bound = any(
            (isinstance(node, ast.Name) and node.id == _CONDITION)
            or (isinstance(node, ast.alias) and (node.asname or node.name) == _CONDITION)
            for node in ast.walk(tree)
        )
        self._used = False
        self._any = False

    def replacing(self, original: str, specs: Sequence[FunctionSpec], indent: str) -> str:
        """The written definitions, then ``original`` (the base's, whole lines) as ``else``."""
        unit = "\t" if "\t" in indent else "    "
        kept = "".join(
            indent + unit + line[len(indent) :] if line.strip() else line
            for line in original.splitlines(keepends=True)
        )
        if not kept.endswith("\n"):
            kept += "\n"
        return self.adding(specs, indent) + f"{indent}else:\n{kept}"

    def adding(self, specs: Sequence[FunctionSpec], indent: str) -> str:
        """The written definitions in an ``if TYPE_CHECKING:`` branch at ``indent``."""
        self._used = True
        unit = "\t" if "\t" in indent else "    "
        inner = indent + unit
        lines = [line for spec in specs for line in spec.replacement.splitlines()]
        lines.extend(self._implementation(specs).splitlines())
        body = "".join(f"{inner}{line}\n" if line else "\n" for line in lines)
        return f"{indent}if {_CONDITION}:\n{body}"

    def _implementation(self, specs: Sequence[FunctionSpec]) -> str:
        """An implementation for written overloads, taking and returning anything; "" when
        the definitions are no overloads."""
        nodes: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        for spec in specs:
            node = ast.parse(spec.replacement).body[0]
            assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            nodes.append(node)
        text = specs[0].replacement
        if not all(any(_named(d, "overload") for d in n.decorator_list) for n in nodes):
            return ""
        self._any = True
        first = nodes[0]
        decorators = [
            d for d in first.decorator_list if _named(d, "staticmethod") or _named(d, "classmethod")
        ]
        positional = [*first.args.posonlyargs, *first.args.args]
        bound = specs[0].owner is not None and not any(
            _named(d, "staticmethod") for d in decorators
        )
        parameters = [positional[0].arg] if bound and positional else []
        parameters += [f"*args: {_ANY}", f"**kwargs: {_ANY}"]
        prefix = "".join(f"@{ast.get_source_segment(text, d)}\n" for d in decorators)
        keyword = "async def" if isinstance(first, ast.AsyncFunctionDef) else "def"
        return f"{prefix}{keyword} {first.name}({', '.join(parameters)}) -> {_ANY}: ..."

    def imports(self) -> list[str]:
        """The import lines the written definitions need."""
        lines: list[str] = []
        if self._used and not self._bound:
            lines.append(f"from typing import {_CONDITION}\n")
        if self._any:
            lines.append(f"from typing import Any as {_ANY}\n")
        return lines


def _named(decorator: ast.expr, name: str) -> bool:
    if isinstance(decorator, ast.Attribute):
        return decorator.attr == name
    return isinstance(decorator, ast.Name) and decorator.id == name
