"""The checker's errors about text that is literal, where only the checker lost track of it.

``classify`` counts these among the checker's other errors, not as findings: an item put into a
list that only the checker typed ``list[LiteralString]`` (a literal's ``split()``), and what a
literal-preserving function of typeshed returns for text the file declares literal, which the
checker solves to ``str``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from typing_literalstring.analysis import own_sinks
from typing_literalstring.analysis.literal_errors import callee_hint
from typing_literalstring.analysis.parsed import Parsed
from typing_literalstring.checkers import Diagnostic
from typing_literalstring.specs.typeshed_literals import literal_preserving_parameters

# A list's methods that put an item into it: refused on a list the checker inferred to hold
# literal strings.
_FILLING = frozenset({"append", "extend", "insert"})
# str methods whose result, on a literal, pyright and our plugin type `list[LiteralString]`
# (PEP 675 Appendix C).
_SPLITTING = frozenset({"split", "rsplit", "splitlines"})


def fills_an_inferred_literal_list(entry: Parsed, diagnostic: Diagnostic) -> bool:
    """Whether the error refuses a str put into a list that only the checker typed
    `list[LiteralString]`, from a literal's split: `cmd = "ipfs add -q -r".split()`, then
    `cmd.append(path)` (beets 2.14.1, 3 tool mistakes in IMPACT.md; pyright's hid only because
    a name `cmd` read as the standard module).  No declaration asked for literal items, and an
    argument list without a shell takes any str.  A list joined into text keeps the error:
    the checker then calls the joined text literal, so the refusal is the only trace."""
    site = entry.sites.at(diagnostic.line, diagnostic.column, callee_hint([diagnostic]))
    scope: ast.AST = site.function or entry.tree
    name = _filled_name(site.call, scope, diagnostic.line)
    if name is None:
        return False
    if site.function is not None:
        arguments = site.function.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        if any(a.arg == name for a in every):
            return False  # a parameter: its type is declared (or Any)
    values: list[ast.expr] = []
    for node in ast.walk(scope):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False
        if isinstance(node, ast.AnnAssign) and _is_name(node.target, name):
            return False  # `cmd: list[LiteralString] = ...`: declared
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if _is_name(target, name):
                    values.append(node.value)
                elif not isinstance(target, ast.Subscript) and any(
                    _is_name(n, name) for n in ast.walk(target)
                ):
                    return False  # unpacked into: not followed
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.withitem, ast.NamedExpr)):
            bound = node.optional_vars if isinstance(node, ast.withitem) else node.target
            if bound is not None and any(_is_name(n, name) for n in ast.walk(bound)):
                return False
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and any(_is_name(n, name) for a in node.args for n in ast.walk(a))
        ):
            return False  # joined into text
    return bool(values) and all(
        isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in _SPLITTING
        for v in values
    )


def _filled_name(call: ast.Call | None, scope: ast.AST, line: int) -> str | None:
    """The name of the list an item is put into at the error: `cmd.append(...)`,
    `cmd.insert(...)`, `cmd.extend(...)`, or `cmd[i] = ...` (mypy's index assignment)."""
    if call is not None:
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in _FILLING
            and isinstance(func.value, ast.Name)
        ):
            return func.value.id
        return None
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.lineno <= line <= (node.end_lineno or line):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    return target.value.id
    return None


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def literal_lost_in_typeshed(entry: Parsed, diagnostic: Diagnostic, typeshed: Path) -> bool:
    """Whether the error refuses, at an assignment or a `for` target, what a literal-preserving
    function of typeshed returns for text the file declares literal: psycopg 3.3.9's sql.py
    declares `pre: LiteralString`, then `for pre, name, spec, conv in
    self._formatter.parse(self._obj)` with `_obj: LiteralString`.  typeshed types
    `Formatter.parse` with `StrOrLiteralStr`, yet pyright solves it to `str` even for a literal
    (and our plugin, as mypy, likewise): the plain checker reports the error on its own stubs,
    and no non-literal text flows there.  The same call given a `str` keeps its finding."""
    site = entry.sites.at(diagnostic.line, diagnostic.column, callee_hint([diagnostic]))
    if site.call is not None:
        return False
    value = _assigned_value(site.function or entry.tree, diagnostic.line)
    if not isinstance(value, ast.Call) or not (value.args or value.keywords):
        return False
    func = value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    preserving = literal_preserving_parameters(typeshed).get(name)
    if preserving is None or name in own_sinks.literal_string_functions(entry.tree, entry.source):
        return False
    arguments = [*value.args, *(k.value for k in value.keywords)]
    if "self" in preserving and isinstance(func, ast.Attribute):
        arguments.append(func.value)  # a str method: `user.replace("a", "b")` is not literal
    return all(_declared_literal(a, entry.tree, site.function) for a in arguments)


def _assigned_value(scope: ast.AST, line: int) -> ast.expr | None:
    """The value assigned by the assignment, or iterated by the `for` header, at ``line``."""
    for node in ast.walk(scope):
        if isinstance(node, (ast.For, ast.AsyncFor)):
            if node.lineno <= line <= (node.iter.end_lineno or node.lineno):
                return node.iter
        elif (
            isinstance(node, (ast.Assign, ast.AnnAssign))
            and node.value is not None
            and node.lineno <= line <= (node.end_lineno or node.lineno)
        ):
            return node.value
    return None


def _is_literal_string(annotation: ast.expr | None) -> bool:
    """`LiteralString`, `typing.LiteralString` or `"LiteralString"`: exactly, no union."""
    if isinstance(annotation, ast.Constant):
        return annotation.value == "LiteralString"
    if isinstance(annotation, ast.Attribute):
        return annotation.attr == "LiteralString"
    return isinstance(annotation, ast.Name) and annotation.id == "LiteralString"


def _declared_literal(
    argument: ast.expr,
    tree: ast.Module,
    function: ast.FunctionDef | ast.AsyncFunctionDef | None,
) -> bool:
    """Whether an argument is a str literal, or a name or `self` attribute the file declares
    exactly LiteralString (a parameter of the enclosing function, or an annotated assignment:
    `_obj: LiteralString` in the body of the method's class, `self._obj: LiteralString`)."""
    if isinstance(argument, ast.Constant):
        return isinstance(argument.value, str)
    if isinstance(argument, ast.Name):
        name, scope = argument.id, function or tree
        if function is not None:
            arguments = function.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            if any(a.arg == name and _is_literal_string(a.annotation) for a in every):
                return True
        return any(
            isinstance(n, ast.AnnAssign)
            and _is_name(n.target, name)
            and _is_literal_string(n.annotation)
            for n in ast.walk(scope)
        )
    if isinstance(argument, ast.Attribute) and isinstance(argument.value, ast.Name):
        if argument.value.id not in ("self", "cls"):
            return False
        attribute = argument.attr
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                if function is not None and function not in node.body:
                    continue  # another class's attribute of that name
                if any(
                    isinstance(s, ast.AnnAssign)
                    and _is_name(s.target, attribute)
                    and _is_literal_string(s.annotation)
                    for s in node.body
                ):
                    return True
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Attribute)
                and node.target.attr == attribute
                and _is_name(node.target.value, argument.value.id)
                and _is_literal_string(node.annotation)
            ):
                return True
    return False


__all__ = ["fills_an_inferred_literal_list", "literal_lost_in_typeshed"]
