"""A stub made from an inline-typed module: its text with every function body dropped.

A package that ships its own types (``py.typed``: SQLAlchemy, Jinja2, MarkupSafe) has no stub to
tighten, and a copy of its ``.py`` files renamed ``.pyi`` is honoured by every checker but has
mypy check the bodies (docs/third-party-overrides.md).  So each function body becomes ``...``,
which is all a stub says of it, and everything else (imports, classes, annotations, module
variables, ``if TYPE_CHECKING`` branches) stays byte for byte, so a specification applies to the
result as it would to a stub.

A body is also where a class declares its instance attributes (``self.name = name`` in
``__init__``).  Those are kept as class-level declarations: with the annotation the assignment
carries, else the annotation of the parameter it assigns, else ``Any``.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path
from typing import Callable, Union

_Function = Union[ast.FunctionDef, ast.AsyncFunctionDef]
# The name the generated declarations use for Any, imported once per module that needs it.
_ANY = "_typing_literalstring_Any"


def write_stubs(package: Path, into: Path) -> None:
    """Every module of the inline-typed ``package`` (a folder) as a stub in ``into`` (a
    ``.pyi`` the package ships wins over its ``.py``).  Raises SyntaxError for a module that
    does not parse."""
    modules: dict[Path, tuple[str, ast.Module | None]] = {}
    for source in sorted(package.rglob("*.py*")):
        if source.suffix not in (".py", ".pyi") or "__pycache__" in source.parts:
            continue
        if source.suffix == ".py" and source.with_suffix(".pyi").is_file():
            continue
        text = source.read_text(encoding="utf-8")
        modules[source] = (text, ast.parse(text) if source.suffix == ".py" else None)
    classes = Classes()
    for _, tree in modules.values():
        if tree is not None:
            classes.add(tree)
    for source, (text, tree) in modules.items():
        target = into / source.relative_to(package).with_suffix(".pyi")
        target.parent.mkdir(parents=True, exist_ok=True)
        stub = text if tree is None else stub_text(text, classes, tree)
        target.write_text(stub, encoding="utf-8")


class Classes:
    """The classes of a package by name: the names each declares in its body, and its bases.

    An instance attribute a base class declares is the base's to type (pyright keeps the base's
    declaration when a subclass assigns it), so a subclass's stub must not declare it again:
    SQLAlchemy's ``Index.__init__`` sets ``self.info`` from an optional parameter, where its
    base declares ``info`` a property that is never None."""

    def __init__(self) -> None:
        self._declared: dict[str, set[str]] = {}
        self._bases: dict[str, set[str]] = {}

    def add(self, tree: ast.Module) -> None:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                self._declared.setdefault(node.name, set()).update(_declared(node))
                self._declared[node.name].update(_assigned_attributes(node))
                self._bases.setdefault(node.name, set()).update(
                    name for base in node.bases if (name := _last_name(base))
                )

    def inherited(self, owner: ast.ClassDef) -> set[str]:
        """What the package's classes named as ``owner``'s bases (and theirs) declare."""
        found: set[str] = set()
        seen: set[str] = set()
        pending = [name for base in owner.bases if (name := _last_name(base))]
        while pending:
            name = pending.pop()
            if name in seen:
                continue
            seen.add(name)
            found |= self._declared.get(name, set())
            pending.extend(self._bases.get(name, ()))
        return found


def _last_name(node: ast.expr) -> str:
    """The name a base class is written with, without its module or subscript."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _assigned_attributes(owner: ast.ClassDef) -> set[str]:
    """The ``self.<name>`` its methods assign: the stub declares them in its body."""
    names: set[str] = set()
    for method in owner.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            positional = [*method.args.posonlyargs, *method.args.args]
            if not positional:
                continue
            for node in ast.walk(method):
                targets: list[ast.expr] = []
                if isinstance(node, ast.Assign):
                    targets = [t for target in node.targets for t in _flattened(target)]
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                    targets = [node.target]
                names.update(
                    t.attr
                    for t in targets
                    if _is_self_attribute(t, positional[0].arg) and isinstance(t, ast.Attribute)
                )
    return names


def stub_text(source: str, classes: Classes | None = None, tree: ast.Module | None = None) -> str:
    """``source`` (a module's text) as a stub: bodies dropped, instance attributes declared
    (``classes``: the package's, whose declarations a subclass must not repeat; ``tree``:
    ``source`` parsed, when the caller has it).

    Raises SyntaxError when ``source`` does not parse."""
    tree = tree if tree is not None else ast.parse(source)
    classes = classes if classes is not None else Classes()
    data = source.encode("utf-8")
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column

    def segment(node: ast.expr) -> str:
        # ast.get_source_segment splits the whole text at each call: quadratic on SQLAlchemy.
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        start = offset(node.lineno, node.col_offset)
        return data[start : offset(node.end_lineno, node.end_col_offset)].decode("utf-8")

    edits: list[tuple[int, int, bytes]] = []
    needs_any = False
    set_elsewhere = _set_by_functions(tree)

    def visit(body: list[ast.stmt], owner: ast.ClassDef | None) -> None:
        nonlocal needs_any
        for node in body:
            if (
                owner is None
                and isinstance(node, ast.Assign)
                and all(isinstance(t, ast.Name) and t.id in set_elsewhere for t in node.targets)
            ):
                # A module variable that functions assign through `global`: its type is all
                # those values, of which the stub keeps none.
                assert node.end_lineno is not None
                assert node.end_col_offset is not None
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                text = "; ".join(f"{name}: {_ANY}" for name in names)
                needs_any = True
                edits.append(
                    (
                        offset(node.lineno, node.col_offset),
                        offset(node.end_lineno, node.end_col_offset),
                        text.encode("utf-8"),
                    )
                )
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first, last = node.body[0], node.body[-1]
                assert last.end_lineno is not None
                assert last.end_col_offset is not None
                # A decorated statement starts at its first decorator's `@`, which is
                # indented as the statement is.
                start_line = min(
                    [first.lineno, *(d.lineno for d in getattr(first, "decorator_list", []))]
                )
                text = "..."
                if owner is not None:
                    indent = " " * node.col_offset
                    inherited = classes.inherited(owner)
                    for name, annotation in _instance_attributes(node, owner, segment):
                        if name in inherited:
                            continue
                        needs_any = needs_any or annotation == _ANY
                        text += f"\n{indent}{name}: {annotation}"
                edits.append(
                    (
                        offset(start_line, first.col_offset),
                        offset(last.end_lineno, last.end_col_offset),
                        text.encode("utf-8"),
                    )
                )
                header = data[
                    offset(node.lineno, node.col_offset) : offset(first.lineno, first.col_offset)
                ]
                edits.extend(_header_edits(node, header, offset(node.lineno, node.col_offset)))
            elif isinstance(node, ast.ClassDef):
                visit(node.body, node)
            elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
                assert node.end_lineno is not None
                assert node.end_col_offset is not None
                edits.append(
                    (
                        offset(node.lineno, node.col_offset),
                        offset(node.end_lineno, node.end_col_offset),
                        _reexported(node).encode("utf-8"),
                    )
                )
            else:
                visit(_branches(node), owner)

    visit(tree.body, None)
    if needs_any:
        # After the `from __future__` imports, which must come first.
        after = max(
            (
                node.end_lineno or node.lineno
                for node in tree.body
                if isinstance(node, ast.ImportFrom) and node.module == "__future__"
            ),
            default=0,
        )
        edits.append((starts[after], starts[after], f"from typing import Any as {_ANY}\n".encode()))
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text + data[end:]
    return data.decode("utf-8")


def _set_by_functions(tree: ast.Module) -> set[str]:
    """The module variables that some function assigns, having declared them ``global``."""
    names: set[str] = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        own = _own_nodes(function)
        declared = {n for node in own if isinstance(node, ast.Global) for n in node.names}
        if not declared:
            continue
        for node in own:
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = [t for target in node.targets for t in _flattened(target)]
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name) and t.id in declared)
    return names


def _reexported(node: ast.ImportFrom) -> str:
    """``node`` with each name imported as itself: a stub re-exports only such names, while a
    module of a package with ``py.typed`` lets its importers use the others too (pyright
    then reports the private import, but knows the type; measured on alembic's
    ``from sqlalchemy.testing import fixture``)."""
    names = ", ".join(
        f"{a.name} as {a.asname or a.name}" if a.name != "*" else "*" for a in node.names
    )
    return f"from {'.' * node.level}{node.module or ''} import {names}"


def _own_nodes(function: _Function) -> list[ast.AST]:
    """The nodes of ``function``'s body, without those of functions and classes inside it."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        found.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
    return found


def _header_edits(function: _Function, header: bytes, start: int) -> list[tuple[int, int, bytes]]:
    """What a body said of the signature, said in the stub.

    An ``async def`` that yields is an async generator; as a stub without its body it would
    read as a coroutine, so it loses ``async`` (typeshed's spelling).  A function without a
    return annotation that never returns a value, never yields and does not end by raising
    returns None, which pyright infers from the body and would lose with it."""
    own = _own_nodes(function)
    yields = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own)
    edits: list[tuple[int, int, bytes]] = []
    if isinstance(function, ast.AsyncFunctionDef) and yields:
        edits.append((start, start + header.index(b"def"), b""))
    returns_value = any(isinstance(n, ast.Return) and n.value is not None for n in own)
    if (
        function.returns is None
        and not yields
        and not returns_value
        and not isinstance(function.body[-1], ast.Raise)
    ):
        colon = _header_colon(header)
        if colon is not None:
            edits.append((start + colon, start + colon, b" -> None"))
    return edits


def _header_colon(header: bytes) -> int | None:
    """The offset in ``header`` (a ``def`` line up to its body) of the colon that ends it."""
    depth = 0
    text = header.decode("utf-8")
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type != tokenize.OP:
                continue
            if token.string in "([{":
                depth += 1
            elif token.string in ")]}":
                depth -= 1
            elif token.string == ":" and depth == 0:
                line, column = token.start
                lines = text.splitlines(keepends=True)
                position = sum(len(x) for x in lines[: line - 1]) + column
                return len(text[:position].encode("utf-8"))
    except (tokenize.TokenError, IndentationError):
        return None
    return None


def _declared(owner: ast.ClassDef) -> set[str]:
    """The names the class body itself binds: those keep their own declaration."""
    names: set[str] = set()
    pending = list(owner.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        else:
            pending.extend(_branches(node))
    return names


def _branches(node: ast.stmt) -> list[ast.stmt]:
    """The statements inside an ``if``, ``try``, ``with``, ``for`` or ``while`` (their bodies,
    ``else``, handlers and ``finally``); none for a simple statement."""
    inner: list[ast.stmt] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.stmt):
            inner.append(child)
        elif isinstance(child, ast.ExceptHandler):
            inner.extend(child.body)
    return inner


def _instance_attributes(
    method: _Function, owner: ast.ClassDef, segment: Callable[[ast.expr], str]
) -> list[tuple[str, str]]:
    """``self.<name>`` assignments in ``method`` that the class body does not declare, with
    the annotation to declare them with."""
    if any(
        isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
        for d in method.decorator_list
    ):
        return []
    positional = [*method.args.posonlyargs, *method.args.args]
    if not positional:
        return []
    self_name = positional[0].arg
    parameters = {
        a.arg: segment(a.annotation)
        for a in [*positional, *method.args.kwonlyargs]
        if a.annotation is not None
    }
    found: dict[str, str] = {}
    for node in ast.walk(method):
        if isinstance(node, ast.AnnAssign) and _is_self_attribute(node.target, self_name):
            assert isinstance(node.target, ast.Attribute)
            found[node.target.attr] = segment(node.annotation)
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for item in _flattened(target):
                    if _is_self_attribute(item, self_name):
                        assert isinstance(item, ast.Attribute)
                        value = node.value if item is target else None
                        found.setdefault(item.attr, _annotation_of(value, parameters))
    declared = _declared(owner)
    return [(name, found[name]) for name in found if name not in declared]


def _flattened(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return [item for element in target.elts for item in _flattened(element)]
    return [target]


def _is_self_attribute(target: ast.expr, self_name: str) -> bool:
    return (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == self_name
    )


def _annotation_of(value: ast.expr | None, parameters: dict[str, str]) -> str:
    """The annotation of the parameter ``value`` names, the type of a literal (what pyright
    would have declared from it: ``self.is_active = True`` is ``bool``), else Any."""
    if isinstance(value, ast.Name) and parameters.get(value.id):
        return parameters[value.id]
    if isinstance(value, ast.Constant) and isinstance(value.value, (bool, int, float, str, bytes)):
        return type(value.value).__name__
    return _ANY
