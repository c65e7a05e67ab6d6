"""A project's modules as syntax trees, and what binds a name where: the ground the facts of
impact_facts.py and impact_logging.py stand on.  Nothing of the project is imported or run."""

from __future__ import annotations

import ast
import functools
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence, Union

from typing_literalstring.analysis.statements import Statements
from typing_literalstring.core.sources import lines as source_lines

Scope = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda]
_MODULES: weakref.WeakKeyDictionary[ast.AST, Module] = weakref.WeakKeyDictionary()


@dataclass
class Module:
    name: str  # dotted
    file: str  # relative to the project's root, POSIX
    tree: ast.Module
    source: str
    parents: dict[ast.AST, ast.AST] = field(default_factory=lambda: {})
    nodes: list[ast.AST] = field(default_factory=lambda: [])  # in ast.walk's order

    def __post_init__(self) -> None:
        _MODULES[self.tree] = self
        # One walk for the parents and the nodes (big projects have millions of nodes).
        self.nodes.append(self.tree)
        for node in self.nodes:
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
                self.nodes.append(child)

    @functools.cached_property
    def statements(self) -> Statements:
        return Statements(self.tree, self.source)

    @functools.cached_property
    def by_line(self) -> dict[int, list[ast.AST]]:
        lines: dict[int, list[ast.AST]] = {}
        for node in self.nodes:
            lines.setdefault(getattr(node, "lineno", 0), []).append(node)
        return lines

    def nodes_in(self, first: int, last: int) -> list[ast.AST]:
        """The nodes that start on the lines ``first`` to ``last``, in ``ast.walk``'s order
        line by line."""
        return [n for line in range(first, last + 1) for n in self.by_line.get(line, [])]

    @functools.cached_property
    def lines(self) -> list[bytes]:
        """The file's lines as the parser counts them (its offsets are of UTF-8 bytes)."""
        return [x.encode("utf-8") for x in source_lines(self.source, keepends=True)]

    def text(self, node: ast.AST) -> str:
        """A node's source text on one line (``ast.get_source_segment``, which splits the
        whole file again on every call)."""
        first: int = getattr(node, "lineno", 0)
        last: int | None = getattr(node, "end_lineno", None)
        start: int = getattr(node, "col_offset", 0)
        end: int | None = getattr(node, "end_col_offset", None)
        if not first or last is None or end is None or last > len(self.lines):
            return ast.dump(node)
        piece: bytes
        if first == last:
            piece = self.lines[first - 1][start:end]
        else:
            middle = b"".join(self.lines[first : last - 1])
            piece = self.lines[first - 1][start:] + middle + self.lines[last - 1][:end]
        return " ".join(piece.decode("utf-8", errors="replace").split())

    def scopes(self, node: ast.AST) -> list[Scope]:
        """The scopes ``node`` is in, innermost first, the module last."""
        found: list[Scope] = []
        at = self.parents.get(node)
        while at is not None:
            if isinstance(at, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                found.append(at)
            at = self.parents.get(at)
        return [*found, self.tree]


def module_name(file: str, root: Path) -> str:
    """The dotted name of ``file``: its folders up to the first one without ``__init__.py``."""
    parts = Path(file).with_suffix("").parts
    start = len(parts) - 1
    while start > 0 and (root.joinpath(*parts[:start]) / "__init__.py").is_file():
        start -= 1
    names = list(parts[start:])
    if names[-1] == "__init__":
        names.pop()
    return ".".join(names)


class Project:
    """One project's modules, parsed once."""

    def __init__(self, root: Path, files: Sequence[str]) -> None:
        self.root = root
        self.modules: dict[str, Module] = {}  # by file
        self.by_name: dict[str, Module] = {}
        for file in files:
            source = (root / file).read_text(encoding="utf-8", errors="replace")
            try:
                tree = ast.parse(source)
            except SyntaxError:
                continue
            module = Module(module_name(file, root), file, tree, source)
            self.modules[file] = module
            self.by_name[module.name] = module
        # attribute name -> every value assigned to it in the project (``x.name = ...`` and
        # a class body's ``name = ...``), with the module it is in; None for a field a class
        # declares with an annotation (a dataclass's, a model's), which its constructor sets.
        self.attributes: dict[str, list[tuple[Module, ast.expr | None]]] = {}
        self.dynamic_attributes: list[str] = []  # where any attribute may be assigned
        for module in self.modules.values():
            for node in module.nodes:
                in_class = isinstance(module.parents.get(node), ast.ClassDef)
                for target, value in _assignments(node):
                    if isinstance(target, ast.Attribute):
                        self.attributes.setdefault(target.attr, []).append((module, value))
                    elif isinstance(target, ast.Name) and in_class:
                        field = isinstance(node, ast.AnnAssign)
                        entry = (module, None if field else value)
                        self.attributes.setdefault(target.id, []).append(entry)
                if (
                    in_class
                    and isinstance(node, ast.AnnAssign)
                    and node.value is None
                    and isinstance(node.target, ast.Name)
                ):
                    self.attributes.setdefault(node.target.id, []).append((module, None))
                self._dynamic(module, node)

    def _dynamic(self, module: Module, node: ast.AST) -> None:
        """``setattr(x, "name", value)`` assigns ``name``; a ``setattr`` of a computed name or
        a write to ``__dict__`` may assign any attribute, so none is followed
        (``dynamic_attributes``)."""
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
            name = node.args[1] if len(node.args) == 3 else None
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                self.attributes.setdefault(name.value, []).append((module, node.args[2]))
            else:
                self.dynamic_attributes.append(f"{module.file}:{node.lineno}")
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "__dict__"
            and isinstance(module.parents.get(node), (ast.Subscript, ast.Attribute))
        ):
            self.dynamic_attributes.append(f"{module.file}:{node.lineno}")

    def imported_module(self, module: Module, node: ast.ImportFrom) -> str:
        """The dotted module a ``from ... import`` names (relative ones resolved)."""
        if not node.level:
            return node.module or ""
        package = module.name.split(".")
        is_package = Path(module.file).name == "__init__.py"
        base = package[: len(package) - node.level + (1 if is_package else 0)]
        return ".".join([*base, *([node.module] if node.module else [])])


def _assignments(node: ast.AST) -> Iterator[tuple[ast.expr, ast.expr]]:
    if isinstance(node, ast.Assign):
        for target in node.targets:
            yield target, node.value
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and node.value is not None:
        yield node.target, node.value


def _own_nodes(scope: Scope) -> Iterator[ast.AST]:
    """The nodes of a scope, not those of the functions and classes it defines (their
    decorators and defaults are the scope's, but they bind nothing we follow)."""
    stack: list[ast.AST] = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))


def parameters(scope: Scope) -> set[str]:
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return set()
    a = scope.args
    names = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    names += [x.arg for x in (a.vararg, a.kwarg) if x is not None]
    return set(names)


@dataclass(frozen=True)
class Binding:
    """What binds a name in a scope: an assigned value, a loop, a parameter, an import..."""

    kind: str  # "value", "augmented", "loop", "parameter", "import", "definition", "other"
    node: ast.AST  # the value, the loop's iterable, the import statement, the definition
    alias: str = ""  # import: the imported name ("logging", "getLogger")


# Methods that put an item into a list, set or dict in place: its items are bound too.
MUTATORS = {"append": 0, "extend": 0, "insert": 1, "add": 0, "update": 0, "setdefault": 1}
_INDEX: weakref.WeakKeyDictionary[ast.AST, dict[str, list[Binding]]] = weakref.WeakKeyDictionary()


def bindings(scope: Scope, name: str) -> list[Binding]:
    index = _INDEX.get(scope)
    if index is None:
        index = _INDEX[scope] = _index(scope)
    return index.get(name, [])


def _index(scope: Scope) -> dict[str, list[Binding]]:
    """Every name a scope binds, with what binds it (a list mutated in place by ``append``
    and the like, or by item assignment, is bound to each item put in)."""
    found: dict[str, list[Binding]] = {}

    def bind(name: str, binding: Binding) -> None:
        found.setdefault(name, []).append(binding)

    for name in parameters(scope):
        bind(name, Binding("parameter", scope))
    nodes = list(_own_nodes(scope))
    module = _MODULES.get(scope)
    if module is not None:  # what functions assign after `global name`
        for statement in module.nodes:
            if not isinstance(statement, ast.Global):
                continue
            function = module.scopes(statement)[0]
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                nodes += [
                    n for n in _own_nodes(function)
                    if any(t.id in statement.names for t in _targets(n))
                ]  # fmt: skip
    for node in nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name, Binding("definition", node))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                # `import a.b` binds `a`, the package; `import a.b as c` binds the module a.b
                top = alias.name if alias.asname or isinstance(node, ast.ImportFrom) else (
                    alias.name.split(".")[0])  # fmt: skip
                bind(alias.asname or top, Binding("import", node, top))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            kind = "loop" if isinstance(node.target, ast.Name) else "other"
            for name in _names(node.target):
                bind(name, Binding(kind, node.iter))
        elif isinstance(node, ast.AugAssign):
            # s += "..." keeps a text literal; n += 1 counts, which no literal of the source is
            text = not (isinstance(node.value, ast.Constant) and not isinstance(
                node.value.value, (str, bytes)))  # fmt: skip
            kind = "augmented" if isinstance(node.op, ast.Add) and text else "other"
            for name in _names(node.target):
                bind(name, Binding(kind, node.value))
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            for target, value in _assignments(node):
                if isinstance(target, ast.Name):
                    bind(target.id, Binding("value", value))
                elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    bind(target.value.id, Binding("value", value))  # items[i] = value
                elif not isinstance(target, ast.Attribute):
                    for name in _names(target):
                        bind(name, Binding("other", value))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                for name in _names(item.optional_vars) if item.optional_vars else ():
                    bind(name, Binding("other", node))
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bind(node.name, Binding("other", node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            # parts.append(x): x is one of the parts
            position = MUTATORS.get(node.func.attr)
            receiver = node.func.value
            if position is not None and isinstance(receiver, ast.Name):
                for argument in node.args[position:]:
                    bind(receiver.id, Binding("value", argument))
                for keyword in node.keywords:
                    bind(receiver.id, Binding("value", keyword.value))
    return found


def _targets(node: ast.AST) -> list[ast.Name]:
    return [
        n for target, _ in _assignments(node) if isinstance(target, ast.Name)
        for n in (target,)
    ]  # fmt: skip


def _names(target: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def resolve(module: Module, node: ast.AST, name: str) -> tuple[Scope, list[Binding]]:
    """The innermost scope around ``node`` that binds ``name`` (a class body only for the
    statements right in it), and its bindings; the module with none when nothing does."""
    scopes = module.scopes(node)
    for index, scope in enumerate(scopes):
        if isinstance(scope, ast.ClassDef) and index > 0:
            continue
        found = bindings(scope, name)
        if found:
            return scope, found
    return module.tree, []
