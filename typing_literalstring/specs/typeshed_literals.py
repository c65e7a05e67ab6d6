"""Which standard-library functions truly require a LiteralString, read from the checker's typeshed.

The stock typeshed types no injection sink with LiteralString, but it uses LiteralString in two
ways.  Most are literal-preserving overloads (PEP 675 Appendix C: str methods, ``os.path.join``,
``posixpath.dirname``): one overload keeps a literal literal, another takes any ``str``, so an
error there is about something else (``None``, ``bytes``).  A few are contracts: every definition
takes LiteralString (``warnings.deprecated``'s message, ``sys.intern``), and passing a
non-literal string there is a real LiteralString error.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Mapping

_FunctionDef = (ast.FunctionDef, ast.AsyncFunctionDef)


def _stub(stdlib: Path, module: str) -> Path | None:
    base = stdlib.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".pyi"), base / "__init__.pyi"):
        if candidate.is_file():
            return candidate
    return None


def takes_literal_string(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a parameter of the definition is annotated with LiteralString."""
    return bool(literal_string_parameters(node))


def literal_string_parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The names of the definition's parameters annotated with LiteralString (``self`` too, as
    str's methods annotate it)."""
    arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    arguments += [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
    return frozenset(
        a.arg
        for a in arguments
        if a.annotation is not None and "LiteralString" in ast.dump(a.annotation)
    )


@functools.lru_cache(maxsize=None)
def _literal_only(stub: Path) -> frozenset[str]:
    """Names (``f``, ``Class.method``; a class for its ``__init__``) all of whose definitions in
    the stub, in every overload and version branch, take a LiteralString parameter."""
    text = stub.read_text(encoding="utf-8")
    if "LiteralString" not in text:
        return frozenset()
    definitions: dict[str, list[bool]] = {}
    for node in ast.walk(ast.parse(text, filename=str(stub))):
        if isinstance(node, _FunctionDef) and node.col_offset == 0:
            definitions.setdefault(node.name, []).append(takes_literal_string(node))
        elif isinstance(node, ast.ClassDef):
            for item in ast.walk(node):
                if isinstance(item, _FunctionDef):
                    takes = takes_literal_string(item)
                    definitions.setdefault(f"{node.name}.{item.name}", []).append(takes)
                    if item.name == "__init__":
                        definitions.setdefault(node.name, []).append(takes)
    return frozenset(name for name, takes in definitions.items() if all(takes))


def requires_literal_string(base_typeshed: Path, qualified: str) -> bool:
    """Whether the stdlib function ``qualified`` (``warnings.deprecated``) takes LiteralString
    in every definition; False for literal-preserving overloads and for names not found."""
    parts = qualified.split(".")
    for split in range(len(parts) - 1, 0, -1):
        stub = _stub(base_typeshed / "stdlib", ".".join(parts[:split]))
        if stub is not None:
            return ".".join(parts[split:]) in _literal_only(stub)
    return False


def _definitions(tree: ast.Module) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
    """A stub's functions and methods by their qualified name in it (``f``, ``Class.method``),
    every overload and version branch."""
    found: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    for node in ast.walk(tree):
        if isinstance(node, _FunctionDef) and node.col_offset == 0:
            found.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.ClassDef):
            for item in ast.walk(node):
                if isinstance(item, _FunctionDef):
                    found.setdefault(f"{node.name}.{item.name}", []).append(item)
    return found


@functools.lru_cache(maxsize=None)
def literal_preserving_parameters(base_typeshed: Path) -> Mapping[str, frozenset[str]]:
    """By the bare name a checker's message gives a function (``join``), the parameters that
    typeshed's literal-preserving definitions of that name annotate with LiteralString.

    A literal-preserving function (``str.join``, ``posixpath.join``) has a LiteralString
    overload beside one that takes any ``str``: an error there is never a literal refused, and
    the plain checker reports it as well (pyright reports a call against the LiteralString
    overload when an argument's type is partly unknown, or "no overloads" for a ``None``).  A
    name that also belongs to a contract (every definition takes LiteralString, as
    ``warnings.deprecated``'s ``__init__``) is left out: an error there may be a real one."""
    stdlib = base_typeshed / "stdlib"
    parameters: dict[str, set[str]] = {}
    contracts: set[str] = set()
    for stub in sorted(stdlib.rglob("*.pyi")):
        text = stub.read_text(encoding="utf-8")
        if "LiteralString" not in text:
            continue
        for qualified, nodes in _definitions(ast.parse(text, filename=str(stub))).items():
            taking = [literal_string_parameters(n) for n in nodes]
            name = qualified.rpartition(".")[2]
            if all(taking):
                contracts.add(name)
            elif any(taking):
                parameters.setdefault(name, set()).update(*taking)
            # `StrOrLiteralStr`, a TypeVar constrained to LiteralString or str, preserves a
            # literal in one definition (`string.capwords`, `Formatter.parse`).
            constrained = {p for n in nodes for p in _parameters_typed(n, "StrOrLiteralStr")}
            if constrained:
                parameters.setdefault(name, set()).update(constrained)
    return {name: frozenset(p) for name, p in parameters.items() if name not in contracts}


def _parameters_typed(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> set[str]:
    arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    return {
        a.arg
        for a in arguments
        if a.annotation is not None
        and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(a.annotation))
    }
