"""Apply one stub specification to one base stub file, as text edits.

The base stub is edited in place rather than regenerated, so everything the specification
does not mention (comments, layout, overloads, version branches) stays byte for byte as the
base typeshed has it, and a diff against the base shows exactly what was tightened.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Union

from typing_literalstring.core.errors import SpecError
from typing_literalstring.specs.stubspec import (
    ADD,
    ALWAYS,
    ARGS,
    REPLACE,
    SHELL,
    WRITTEN,
    FunctionSpec,
    Import,
    ModuleSpec,
    all_parameters,
)
from typing_literalstring.specs.written import Written

PROFILES = ("default", "strict")

_Function = Union[ast.FunctionDef, ast.AsyncFunctionDef]
# Names the generated text uses, and where they come from.
_OVERLOAD = Import("typing", "overload")
_LITERAL = Import("typing", "Literal")
# Modules whose names are interchangeable for a stub's purposes.
_SAME_MODULES = {"typing_extensions": "typing", "collections.abc": "typing"}
# The positional parameter that `@when_args` adds so that at least one argument is passed.
_FIRST_ARG = "arg"


@dataclass(frozen=True)
class _Edit:
    start: int  # byte offsets into the base source
    end: int
    text: bytes


class _Source:
    """Byte offsets for ast positions (ast columns count UTF-8 bytes)."""

    def __init__(self, text: str) -> None:
        self.data = text.encode("utf-8")
        self.line_starts = [0]
        for line in self.data.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))

    def offset(self, line: int, column: int) -> int:
        return self.line_starts[line - 1] + column

    def start(self, node: ast.expr | ast.arg) -> int:
        return self.offset(node.lineno, node.col_offset)

    def end(self, node: ast.expr | ast.arg) -> int:
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        return self.offset(node.end_lineno, node.end_col_offset)

    def line_start(self, line: int) -> int:
        return self.line_starts[line - 1]

    def indent_of_line(self, line: int) -> bytes:
        raw = self.data[self.line_starts[line - 1] : self.line_starts[line]]
        return raw[: len(raw) - len(raw.lstrip(b" \t"))]


def tighten_module(source: str, spec: ModuleSpec, profile: str, module: bool = False) -> str:
    """The base stub ``source`` with ``spec`` applied for ``profile``; ``module``: the base is
    a package's own module (``.py``, source_copy.py), where a definition the specification
    writes whole stands under ``if TYPE_CHECKING:`` beside the original (written.py)."""
    if profile not in PROFILES:
        raise SpecError(f"unknown profile {profile!r}: choose one of {', '.join(PROFILES)}")
    tree = ast.parse(source)
    text = _Source(source)
    written = Written(tree) if module else None
    edits: list[_Edit] = []
    needed: list[Import] = list(spec.imports)
    # A function replaced by several definitions (overloads) is replaced once, by them all.
    replacements: dict[str, list[FunctionSpec]] = {}
    for function_spec in spec.functions:
        if function_spec.condition in WRITTEN:
            replacements.setdefault(function_spec.qualname, []).append(function_spec)
    for function_spec in spec.functions:
        if (
            function_spec.condition in WRITTEN
            and replacements[function_spec.qualname][0] is not function_spec
        ):
            continue
        if function_spec.condition == ADD:
            edits.append(
                _add_method(text, tree, replacements[function_spec.qualname], spec, written)
            )
            continue
        targets = _find(tree, function_spec)
        if not targets and function_spec.optional:
            continue  # this release inherits it from a base another specification tightens
        if not targets:
            raise SpecError(
                f"{spec.source}:{function_spec.line}: {function_spec.qualname} is not defined in "
                f"the base {spec.target}: the base typeshed changed; update the specification"
            )
        if function_spec.where_base:
            targets = [node for node in targets if _annotated_as(node, function_spec, source)]
            if not targets:
                raise SpecError(
                    f"{spec.source}:{function_spec.line}: no definition of "
                    f"{function_spec.qualname} in the base {spec.target} annotates "
                    + ", ".join(f"{name} as {text}" for name, text in function_spec.where_base)
                    + ": the base changed; update the specification"
                )
        condition = function_spec.condition
        if condition == ARGS and profile == "strict":
            condition = ALWAYS
        for node in targets:
            where = (
                f"{spec.source}:{function_spec.line}: {function_spec.qualname} "
                f"(base line {node.lineno})"
            )
            if condition == ALWAYS:
                edits.extend(_retype(text, node, function_spec, where))
                continue
            if condition == REPLACE:
                edits.append(_replace(text, node, replacements[function_spec.qualname], written))
                continue
            if written is not None:
                raise SpecError(f"{where}: overloads are made only in a stub, not in a module")
            edits.append(_split(text, node, function_spec, condition, where))
            needed.append(_OVERLOAD)
            if condition == SHELL:
                needed.append(_LITERAL)
    edits.append(_add_imports(tree, text, needed, spec, written))
    return _apply(text.data, edits).decode("utf-8")


def _find(tree: ast.Module, spec: FunctionSpec) -> list[_Function]:
    """Every definition of the function, in each ``if`` branch (never inside another def).

    A method the class does not define itself is looked for in its bases defined in the same
    module, nearest first: releases move a method between a class and its base (django-stubs
    4.2 defines `raw` on `BaseManager`, 5.x on `Manager`), and one specification must apply
    to each."""
    if spec.owner is None:
        return _defined_in(tree.body, spec.name)
    classes = {
        node.name: node for node in _walk_branches(tree.body) if isinstance(node, ast.ClassDef)
    }
    # A class another release names through an alias: django-stubs 4.2's
    # `QuerySet: TypeAlias = _QuerySet[_T, _T]`.
    aliases = {
        target.id: _base_name(node.value)
        for node in _walk_branches(tree.body)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and target.id not in classes
    }
    owners = [spec.owner]
    seen: set[str] = set()
    while owners:
        owner = owners.pop(0)
        owner = aliases.get(owner, owner)
        if owner in seen or owner not in classes:
            continue
        seen.add(owner)
        found = [
            node
            for cls in _walk_branches(tree.body)
            if isinstance(cls, ast.ClassDef) and cls.name == owner
            for node in _defined_in(cls.body, spec.name)
        ]
        if found:
            return found
        owners.extend(_base_name(base) for base in classes[owner].bases)
    return []


def _defined_in(body: list[ast.stmt], name: str) -> list[_Function]:
    return [
        node
        for node in _walk_branches(body)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
    ]


def _base_name(base: ast.expr) -> str:
    """``BaseManager`` of ``BaseManager[_T]``; "" for a base from another module."""
    if isinstance(base, ast.Subscript):
        base = base.value
    return base.id if isinstance(base, ast.Name) else ""


def _annotated_as(node: _Function, spec: FunctionSpec, source: str) -> bool:
    """Whether ``node`` annotates each parameter ``@where_base`` names with its text."""
    parameters = _parameters(node)
    for name, text in spec.where_base:
        annotation = parameters[name].annotation if name in parameters else None
        if annotation is None or ast.get_source_segment(source, annotation) not in text.split(
            " or "
        ):
            return False
    return True


def _walk_branches(body: list[ast.stmt]) -> list[ast.stmt]:
    found: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            found.extend(_walk_branches(node.body))
            found.extend(_walk_branches(node.orelse))
        else:
            found.append(node)
    return found


def _parameters(node: _Function) -> dict[str, ast.arg]:
    return {argument.arg: argument for argument in all_parameters(node)}


def _retype(text: _Source, node: _Function, spec: FunctionSpec, where: str) -> list[_Edit]:
    parameters = _parameters(node)
    positional = [*node.args.posonlyargs, *node.args.args]
    edits: list[_Edit] = []
    for retype in spec.retypes:
        if retype.position is not None:
            parameter = positional[retype.position] if retype.position < len(positional) else None
        else:
            parameter = parameters.get(retype.name)
        if parameter is None:
            raise SpecError(
                f"{where}: the base has no parameter {retype.name!r} "
                f"(it has {', '.join(parameters) or 'none'}): update the specification"
            )
        if parameter.annotation is None:
            # An unannotated parameter (types-mysqlclient's `execute(self, query, args=None)`)
            # gets the annotation after its name.
            name_end = text.start(parameter) + len(parameter.arg.encode("utf-8"))
            edits.append(_Edit(name_end, name_end, b": " + retype.annotation.encode("utf-8")))
            continue
        edits.append(
            _Edit(
                text.start(parameter.annotation),
                text.end(parameter.annotation),
                retype.annotation.encode("utf-8"),
            )
        )
    return edits


def _replace(
    text: _Source, node: _Function, specs: list[FunctionSpec], written: Written | None
) -> _Edit:
    """The definition, decorators included, replaced by the specification's own (each of its
    overloads, in order); in a module, the original stays as the ``else`` branch."""
    first_line = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    assert node.end_lineno is not None
    start, end = text.line_start(first_line), text.line_start(node.end_lineno + 1)
    indent = text.indent_of_line(node.lineno).decode("utf-8")
    if written is not None:
        original = text.data[start:end].decode("utf-8")
        return _Edit(start, end, written.replacing(original, specs, indent).encode("utf-8"))
    lines = [
        indent + line if line else line for spec in specs for line in spec.replacement.splitlines()
    ]
    return _Edit(start, end, ("\n".join(lines) + "\n").encode("utf-8"))


def _add_method(
    text: _Source,
    tree: ast.Module,
    specs: list[FunctionSpec],
    module: ModuleSpec,
    written: Written | None,
) -> _Edit:
    """The specification's method (each of its overloads) added at the end of its class."""
    first = specs[0]
    where = f"{module.source}:{first.line}: {first.qualname}"
    classes = [
        node
        for node in _walk_branches(tree.body)
        if isinstance(node, ast.ClassDef) and node.name == first.owner
    ]
    if not classes:
        raise SpecError(
            f"{where}: the base {module.target} has no class {first.owner} to add it to: the "
            "base changed; update the specification"
        )
    if _defined_in(classes[0].body, first.name):
        raise SpecError(
            f"{where}: the base {module.target} defines it already: tighten it without @added"
        )
    cls = classes[0]
    assert cls.end_lineno is not None
    if cls.body[0].lineno == cls.lineno:
        raise SpecError(f"{where}: the base writes class {cls.name} on one line; nothing to add to")
    indent = text.indent_of_line(cls.body[0].lineno).decode("utf-8")
    at = text.line_start(cls.end_lineno + 1)
    if written is not None:
        return _Edit(at, at, written.adding(specs, indent).encode("utf-8"))
    lines = [
        indent + line if line else line for spec in specs for line in spec.replacement.splitlines()
    ]
    return _Edit(at, at, ("\n".join(lines) + "\n").encode("utf-8"))


def _split(text: _Source, node: _Function, spec: FunctionSpec, condition: str, where: str) -> _Edit:
    """Replace the definition by two overloads: base types, then the tightened types."""
    first_line = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    assert node.end_lineno is not None
    start, end = text.line_start(first_line), text.line_start(node.end_lineno + 1)
    if condition == SHELL:
        keep, tighten = _shell_edits(text, node, where)
    else:
        keep, tighten = _args_edits(text, node, where)
    tighten = tighten + _retype(text, node, spec, where)
    prefix = b""
    if not any(_is_overload(d) for d in node.decorator_list):
        prefix = text.indent_of_line(node.lineno) + b"@overload\n"
    region = text.data[start:end]
    copies = [
        prefix + _apply(region, [_Edit(e.start - start, e.end - start, e.text) for e in edits])
        for edits in (keep, tighten)
    ]
    return _Edit(start, end, b"".join(copies))


def _is_overload(decorator: ast.expr) -> bool:
    if isinstance(decorator, ast.Name):
        return decorator.id == "overload"
    return isinstance(decorator, ast.Attribute) and decorator.attr == "overload"


def _shell_edits(text: _Source, node: _Function, where: str) -> tuple[list[_Edit], list[_Edit]]:
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = dict(
        zip(
            [a.arg for a in positional[len(positional) - len(arguments.defaults) :]],
            arguments.defaults,
        )
    )
    defaults.update(
        (a.arg, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None
    )
    shell = _parameters(node).get("shell")
    default = defaults.get("shell")
    if shell is None or shell.annotation is None:
        raise SpecError(f"{where}: the base has no annotated `shell` parameter")
    if not (isinstance(default, ast.Constant) and default.value is False):
        raise SpecError(f"{where}: the base's `shell` parameter does not default to False")
    not_shell = _Edit(text.start(shell.annotation), text.end(shell.annotation), b"Literal[False]")
    return [not_shell], []


def _args_edits(text: _Source, node: _Function, where: str) -> tuple[list[_Edit], list[_Edit]]:
    arguments = node.args
    vararg = arguments.vararg
    if vararg is None or vararg.annotation is None:
        raise SpecError(f"{where}: the base has no annotated `*args` parameter")
    if arguments.posonlyargs or arguments.defaults:
        raise SpecError(
            f"{where}: the parameters before `*args` are positional-only or have defaults; "
            "@when_args cannot add a required argument there"
        )
    if not arguments.kwonlyargs:
        raise SpecError(f"{where}: no keyword-only parameters follow `*args`")
    star = text.data.rindex(b"*", 0, text.start(vararg))
    # Without formatting arguments: drop `*args: T`, keep the bare `*` before keyword-only ones.
    without = _Edit(star, text.end(vararg.annotation), b"*")
    # With them: a required positional `arg: T` first, so that `msg` is a format string.
    annotation = text.data[text.start(vararg.annotation) : text.end(vararg.annotation)]
    line_start = text.line_start(vararg.lineno)
    if text.data[line_start:star].strip() == b"":
        indent = text.data[line_start:star]
        added = _FIRST_ARG.encode() + b": " + annotation + b",\n" + indent + b"/,\n" + indent
    else:
        added = _FIRST_ARG.encode() + b": " + annotation + b", /, "
    return [without], [_Edit(star, star, added)]


def _bindings(nodes: list[ast.stmt]) -> dict[str, Import | None]:
    """The names these statements bind: their import, or None for a name bound otherwise."""
    bound: dict[str, Import | None] = {}
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                bound[alias.asname or alias.name] = Import(node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[node.name] = None
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = None
    return bound


def _same(a: Import, b: Import) -> bool:
    return a.name == b.name and _SAME_MODULES.get(a.module, a.module) == _SAME_MODULES.get(
        b.module, b.module
    )


def _add_imports(
    tree: ast.Module,
    text: _Source,
    needed: list[Import],
    spec: ModuleSpec,
    written: Written | None = None,
) -> _Edit:
    """Import what the tightened text names, unless the stub already imports it unconditionally."""
    anywhere = _bindings(_walk_branches(tree.body))
    unconditional = _bindings(tree.body)
    missing: list[Import] = []
    for wanted in needed:
        if wanted.name in anywhere:
            have = anywhere[wanted.name]
            if have is None or not _same(have, wanted):
                source = "something else" if have is None else f"{have.module}.{have.name}"
                raise SpecError(
                    f"{spec.source}: the base {spec.target} already binds {wanted.name!r} to "
                    f"{source}, so it cannot import {wanted.module}.{wanted.name}"
                )
            if wanted.name in unconditional:
                continue
        if wanted not in missing:
            missing.append(wanted)
    lines = sorted(f"from {i.module} import {i.name}\n" for i in missing)
    if written is not None:
        lines.extend(written.imports())
    for added in spec.added:
        name = _defined_name(added)
        if name in anywhere:
            raise SpecError(f"{spec.source}: the base {spec.target} already defines {name!r}")
        lines.append(f"\n{added}\n\n")
    # After the leading block of imports (a stub's first lines), before everything else.
    position = 0
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            assert node.end_lineno is not None
            position = text.line_start(node.end_lineno + 1)
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            break
    return _Edit(position, position, "".join(lines).encode("utf-8"))


def _defined_name(added: str) -> str:
    """The name an added class or type variable defines."""
    node = ast.parse(added).body[0]
    if isinstance(node, ast.ClassDef):
        return node.name
    assert isinstance(node, ast.Assign)
    assert isinstance(node.targets[0], ast.Name)
    return node.targets[0].id


def _apply(data: bytes, edits: list[_Edit]) -> bytes:
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    for before, after in zip(ordered, ordered[1:]):
        if after.start < before.end:
            raise SpecError("two tightenings overlap in one stub: a function is specified twice")
    out: list[bytes] = []
    cursor = 0
    for edit in ordered:
        out.append(data[cursor : edit.start])
        out.append(edit.text)
        cursor = edit.end
    out.append(data[cursor:])
    return b"".join(out)
