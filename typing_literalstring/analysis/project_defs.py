"""Which of the checked project's own functions and classes a call names, read on the trees.

Sinks are matched by name (``execute``, ``SQL``, ``Template``, ``run``, ``from_string``), and
projects define functions of those names: peewee's ``class SQL(ColumnBase)``, beets' path
``Template``, celery's ``Task.run``, psycopg's ``Xid.from_string``, a test class's own
``_call`` helper.  Such a call reaches a library's sink only if the project's definition does,
which is the wrapper inference's question (``wrappers``); judged by its name instead, it made
65 of the impact report's 75 wrong findings.  A callee is the project's own (``Own``) when the
call names, with nothing dynamic between:

- a function or class its module defines, or imports from a checked module that defines it
  (``from ._tpc import Xid``, ``from peewee import *``, through re-imports);
- an attribute of such a class (``Xid.from_string``) or of such a module
  (``functemplate.template``), defined in the class or in one of its project bases;
- ``self.name(...)``, ``cls.name(...)`` and ``super().name(...)`` (``super(C, self)`` too) in a
  method: the first definition of ``name`` along the class's method resolution order (C3,
  ``class_mro``) over the project's classes, after the class itself for ``super()``.  A class
  of another package on that order before any definition makes the callee that package's
  (``Foreign``): flask-admin's ``get_detail_value``, not the project's override of it; a base
  out of view makes it undecided.

A callee reached through an import of another package (``tblib.Traceback.from_string``) is
``Foreign``: named like a sink, but that package's.  Anything else (a receiver whose class is
not in view, a name assigned at run time) is not decided here and stays judged by its name.
Nothing is imported or run: the modules are only read and parsed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Hashable, Iterable, Sequence

from typing_literalstring.analysis import class_mro
from typing_literalstring.analysis.bindings import From, assigns, bindings, parameters, stars
from typing_literalstring.analysis.callee_kinds import (
    PROVIDERS,
    SINK_PACKAGES,
    Foreign,
    Own,
    Resolved,
)
from typing_literalstring.analysis.callees import dotted_name
from typing_literalstring.analysis.instance_names import declared_elsewhere, stored_attributes
from typing_literalstring.analysis.statements import imported_packages
from typing_literalstring.analysis.tree_indexes import call_stacks, methods_by_name
from typing_literalstring.core.project import module_name
from typing_literalstring.specs.sinks import SINK_NAMES

# How deep re-imports and base classes are followed.
_DEPTH = 6
# How many project classes deep a method resolution order is followed.
_ORDER_DEPTH = 60


@dataclass(frozen=True)
class _Module:
    name: str
    path: str
    tree: ast.Module
    is_package: bool


class Project:
    """The checked files by module name, parsed when a call needs them."""

    def __init__(self, files: Iterable[Path], roots: Sequence[Path]) -> None:
        self._files: dict[str, Path] = {}
        self._names: dict[str, str] = {}  # resolved path -> module name
        self._packages: set[str] = set()  # every module's name and the packages holding it
        for path in files:
            name = module_name(path, roots)
            if name is not None:
                self._files.setdefault(name, path)
                self._names[str(path.resolve())] = name
                parts = name.split(".")
                self._packages.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
        self._parsed: dict[str, _Module | None] = {}
        # (a module's path, a name) -> what it binds there (``Callees._global``).
        self.globals: dict[tuple[str, str], Resolved | _Module] = {}
        # A class (``_key``) -> its method resolution order (``Callees._order``).
        self.orders: class_mro.Orders[_Module] = {}

    def add(self, path: str, tree: ast.Module) -> None:
        """A file already parsed (by the probes): not read again."""
        name = self._names.get(path)
        if name is not None and name not in self._parsed:
            self._parsed[name] = _Module(name, path, tree, Path(path).name == "__init__.py")

    def module(self, name: str) -> _Module | None:
        if name not in self._parsed:
            self._parsed[name] = self._parse(name)
        return self._parsed[name]

    def _parse(self, name: str) -> _Module | None:
        path = self._files.get(name)
        if path is None:
            return None
        try:
            tree = ast.parse(path.read_bytes(), str(path))
        except (OSError, SyntaxError, ValueError, RecursionError):
            return None  # unreadable, or a newer grammar: undecided, judged by name
        return _Module(name, str(path.resolve()), tree, path.name == "__init__.py")

    def defining(self, path: str) -> _Module | None:
        """The parsed module of a resolved path."""
        name = self._names.get(path)
        return self.module(name) if name is not None else None

    def is_project(self, module: str) -> bool:
        return module in self._packages

    def callees(self, path: str, tree: ast.Module) -> Callees:
        """The resolver of one file's calls."""
        self.add(path, tree)
        name = self._names.get(path)
        here = self.module(name) if name is not None else None
        if here is None or here.tree is not tree:
            here = _Module(name or "", path, tree, Path(path).name == "__init__.py")
        return Callees(self, here)


class Callees:
    """What one file's calls name (see the module's docstring)."""

    def __init__(self, project: Project, module: _Module) -> None:
        self._project = project
        self._module = module
        self._stacks: dict[int, tuple[ast.AST, ...]] | None = None
        # (id of a scope, a name) -> its bindings there, for the calls of a method on it.
        self._bound: dict[tuple[int, str], list[ast.AST | From]] = {}

    def of(self, call: ast.Call) -> Resolved:
        """The project's definition ``call`` names, another package's function, or None when
        undecided."""
        try:
            found = self._of(call)
        except RecursionError:
            return None  # a chain of re-imports deeper than Python's stack: undecided
        if isinstance(found, Foreign) and found.package in SINK_PACKAGES:
            return None
        if isinstance(found, Own) and isinstance(found.node, ast.ClassDef):
            defining = self._defining(found.path)
            if defining is None or self._extends_a_sink(defining, found.node, 0):
                return None  # Jinja2 3.0's `class Markup(markupsafe.Markup)`: as its base
        return found

    def _of(self, call: ast.Call) -> Resolved:
        func = call.func
        stack = self._stack(call)
        if isinstance(func, ast.Name):
            found = self._name(self._module, func.id, stack, 0)
            return None if isinstance(found, _Module) else found
        if isinstance(func, ast.Attribute) and _is_super(func.value):
            assert isinstance(func.value, ast.Call)
            return self._super(func.value, func.attr, stack)
        dotted = dotted_name(func)
        if dotted is None:
            return self._held_by_the_instance(func, stack)
        head, *rest = dotted
        if head in ("self", "cls") and len(rest) == 1:
            cls = _enclosing_class(stack)
            if cls is None:
                return None
            return self._member(self._module, cls, rest[0], 0, dispatch=cls.name)
        if head in ("self", "cls"):
            return self._held_by_the_instance(func, stack)
        found = self._name(self._module, head, stack, 0)
        if found is None and len(rest) == 1:
            return self._method_of_an_instance(head, rest[0], stack)
        return self._attributes(found, rest, 0)

    def _method_of_an_instance(self, name: str, method: str, stack: Sequence[ast.AST]) -> Resolved:
        """``huey.execute(...)`` where the function (or the module) binds ``huey`` once, to
        ``MemoryHuey(...)``, a class of the project: the method Python finds on that class,
        as for ``self.m()``.  Undecided when the name is a parameter, bound more than once or
        declared global or nonlocal, when the class may be a sink's subclass (``of``), or when
        the project assigns such an attribute on some object (the instance's own would come
        first)."""
        scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef = next(
            (s for s in reversed(stack) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))),
            self._module.tree,
        )
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and name in parameters(scope):
            return None
        key = (id(scope), name)
        if key not in self._bound:
            self._bound[key] = list(bindings(scope, name))
        bound = self._bound[key]
        if len(bound) != 1:
            return None
        assignment = bound[0]
        if not (
            isinstance(assignment, ast.Assign)
            and len(assignment.targets) == 1
            and isinstance(assignment.targets[0], ast.Name)
            and isinstance(assignment.value, ast.Call)
        ):
            return None
        cls = self.of(assignment.value)
        if not isinstance(cls, Own) or not isinstance(cls.node, ast.ClassDef):
            return None
        module = self._defining(cls.path)
        if (
            module is None
            or declared_elsewhere(scope, name)
            or any({method, "*"} & stored_attributes(m.tree) for m in (self._module, module))
        ):
            return None
        return self._member(module, cls.node, method, 0)

    def _held_by_the_instance(self, func: ast.expr, stack: Sequence[ast.AST]) -> Resolved:
        """``self.cache[name].execute(...)``: a method of an object the instance holds, which
        the checker cannot type, where the module defines one method of that name and imports
        no package that provides such a sink: the module's own (bottle 0.13.5's
        ``SimpleTemplate.execute``, its templates kept in ``self.cache``).  Not inside a
        function of that very name, which delegates to the held object (``def execute(self,
        sql): return self.conn.execute(sql)``)."""
        if not isinstance(func, ast.Attribute) or not _rooted_at_the_instance(func.value):
            return None
        name = func.attr
        if any(
            isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name for s in stack
        ):
            return None
        family = SINK_NAMES[name][0].family if name in SINK_NAMES else ""
        if imported_packages(self._module.tree) & PROVIDERS.get(family, SINK_PACKAGES):
            return None
        defined = methods_by_name(self._module.tree).get(name, [])
        if len(defined) != 1:
            return None  # two: which one is not known
        cls, item = defined[0]
        return Own(self._module.path, item, cls, cls)

    def _stack(self, call: ast.Call) -> tuple[ast.AST, ...]:
        """The functions and classes around ``call``, outermost first."""
        if self._stacks is None:
            self._stacks = call_stacks(self._module.tree)
        return self._stacks.get(id(call), ())

    def _name(
        self, module: _Module, name: str, stack: Sequence[ast.AST], depth: int
    ) -> Resolved | _Module:
        """What ``name`` is bound to where the call is: the enclosing functions' bindings
        first (not a class body's), then the module's."""
        if depth > _DEPTH:
            return None
        for scope in reversed(stack):
            if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if name in parameters(scope):
                    return None
                bound = list(bindings(scope, name))
                if bound:
                    return self._one(module, bound, depth)
        return self._global(module, name)

    def _global(self, module: _Module, name: str) -> Resolved | _Module:
        """What ``name`` is bound to in ``module``'s namespace, found once per project: star
        imports may form cycles (a hostile checkout of 12 modules each importing * from all
        the others took 47 s for one name before), and a cycle binds nothing."""
        key = (module.path, name)
        known = self._project.globals
        if key in known:
            return known[key]
        known[key] = None
        bound = list(bindings(module.tree, name))
        found: Resolved | _Module = None
        if bound:
            found = self._one(module, bound, 0)
        else:
            for star in stars(module.tree):
                target = self._import_base(module, star)
                source = self._project.module(target) if target else None
                if source is None:
                    break  # maybe the other package's: undecided
                found = self._global(source, name)
                if found is not None:
                    break
        known[key] = found
        return found

    def _one(
        self, module: _Module, bindings: Sequence[ast.AST | From], depth: int
    ) -> Resolved | _Module:
        """The binding's meaning when every binding of the name agrees: all definitions of
        the project, or all imports of one other package."""
        found = [self._binding(module, b, depth) for b in bindings]
        if all(isinstance(f, Own) for f in found):
            # Two definitions (cherrypy's `popen` in `try:`, another in `except ImportError:`):
            # which one runs is not known.
            return found[0] if len({id(f.node) for f in found if isinstance(f, Own)}) == 1 else None
        if all(isinstance(f, _Module) for f in found):
            return found[0]
        packages = {f.package for f in found if isinstance(f, Foreign)}
        if len(packages) == 1 and all(isinstance(f, Foreign) for f in found):
            return found[0]
        return None

    def _binding(self, module: _Module, node: ast.AST | From, depth: int) -> Resolved | _Module:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return Own(module.path, node)
        if isinstance(node, ast.alias):  # `import a.b as c`, or `import a` binding a
            return self._imported_module(node.name if node.asname else node.name.split(".")[0])
        if isinstance(node, From):
            return self._from(module, node.statement, node.alias, depth)
        return None  # assigned: a value of the run

    def _defining(self, path: str) -> _Module | None:
        """The parsed module of a definition: this file's own, else the project's."""
        return self._module if path == self._module.path else self._project.defining(path)

    def _extends_a_sink(self, module: _Module, cls: ast.ClassDef, depth: int) -> bool:
        """Whether a base of ``cls``, or of its project bases, is a class of a package whose
        sinks we judge: its constructor may be the tightened one."""
        if depth > _DEPTH:
            return False
        for base in cls.bases:
            dotted = dotted_name(base)
            if dotted is None:
                continue
            head, *rest = dotted
            found = self._attributes(self._name(module, head, (), depth + 1), rest, depth + 1)
            if isinstance(found, Foreign) and found.package in SINK_PACKAGES:
                return True
            if isinstance(found, Own) and isinstance(found.node, ast.ClassDef):
                defining = self._defining(found.path)
                if defining is not None and self._extends_a_sink(defining, found.node, depth + 1):
                    return True
        return False

    def _imported_module(self, name: str) -> Resolved | _Module:
        found = self._project.module(name)
        if found is not None:
            return found
        return None if self._project.is_project(name) else Foreign(name.split(".")[0])

    def _from(
        self, module: _Module, statement: ast.ImportFrom, alias: ast.alias, depth: int
    ) -> Resolved | _Module:
        base = self._import_base(module, statement)
        if base is None:
            return None
        source = self._project.module(base)
        if source is None:
            if self._project.is_project(base):
                return self._project.module(f"{base}.{alias.name}")  # a submodule, or unread
            return Foreign(base.split(".")[0]) if not statement.level else None
        resolved = self._name(source, alias.name, (), depth + 1)
        if resolved is None:
            return self._project.module(f"{base}.{alias.name}")
        return resolved

    def _import_base(self, module: _Module, statement: ast.ImportFrom) -> str | None:
        if not statement.level:
            return statement.module
        parts = module.name.split(".") if module.name else []
        if not module.is_package:
            parts = parts[:-1]
        if statement.level > 1:
            parts = parts[: len(parts) - (statement.level - 1)]
        if not parts and not statement.module:
            return None
        return ".".join([*parts, *([statement.module] if statement.module else [])])

    def _attributes(self, found: Resolved | _Module, rest: Sequence[str], depth: int) -> Resolved:
        """``found.a.b``: through the project's modules (and their submodules) and classes."""
        for index, attribute in enumerate(rest):
            if found is None or isinstance(found, Foreign):
                return found
            if isinstance(found, _Module):
                inner = self._name(found, attribute, (), depth + 1)
                found = (
                    inner
                    if inner is not None
                    else self._project.module(f"{found.name}.{attribute}")
                )
                continue
            if isinstance(found.node, ast.ClassDef) and index == len(rest) - 1:
                module = self._defining(found.path)
                if module is None:
                    return None
                return self._member(module, found.node, attribute, depth + 1)
            return None  # an attribute of a function, or a nested class's member
        return None if isinstance(found, _Module) else found

    def _member(
        self, module: _Module, cls: ast.ClassDef, name: str, depth: int, dispatch: str = ""
    ) -> Resolved:
        """``name`` looked up on ``cls`` as Python does: along its method resolution order
        (``dispatch``: the class a ``self.name()`` call dispatches on, see ``Own.owner``)."""
        order = self._order(module, cls, depth)
        return None if order is None else _first_definition(order, name, dispatch)

    def _super(self, call: ast.Call, name: str, stack: Sequence[ast.AST]) -> Resolved:
        """``super().name`` in a method of a class, or ``super(C, self).name``: the first
        definition after the class (after C) on the order of the class the method is in."""
        cls = _enclosing_class(stack)
        order = self._order(self._module, cls, 0) if cls is not None else None
        if order is None:
            return None
        after = order[0].key
        if call.args:
            dotted = dotted_name(call.args[0])
            found = None
            if dotted is not None:
                head = self._name(self._module, dotted[0], stack, 0)
                found = self._attributes(head, dotted[1:], 0)
            module = self._defining(found.path) if isinstance(found, Own) else None
            if module is None or not isinstance(found, Own):
                return None  # super(type(self), self), or a class out of view
            if not isinstance(found.node, ast.ClassDef):
                return None
            after = _key(module, found.node)
            if after not in [a.key for a in order]:
                order = self._order(module, found.node, 0)
                if order is None:
                    return None
        keys = [a.key for a in order]
        return _first_definition(order[keys.index(after) + 1 :], name, "")

    def _order(self, module: _Module, cls: ast.ClassDef, depth: int) -> list[_Ancestor] | None:
        """``cls``'s method resolution order over the project's classes (``class_mro``)."""
        root = _Ancestor(_key(module, cls), module, cls)
        # A cycle of bases ends at a class already on the way; the depth only bounds Python's
        # stack, so an order is never cut short by it in a real project.
        return class_mro.linearize(root, self._bases, self._project.orders, depth, _ORDER_DEPTH)

    def _bases(self, ancestor: _Ancestor) -> list[_Ancestor]:
        assert ancestor.module is not None
        assert ancestor.cls is not None
        return [self._ancestor(ancestor.module, base) for base in ancestor.cls.bases]

    def _ancestor(self, module: _Module, base: ast.expr) -> _Ancestor:
        """What a base class expression names (``Generic[T]`` is ``Generic``)."""
        if isinstance(base, ast.Subscript):
            base = base.value
        dotted = dotted_name(base)
        if dotted is None:
            return _Ancestor(("unknown", id(base)))
        head, *rest = dotted
        found = self._attributes(self._name(module, head, (), 1), rest, 1)
        if isinstance(found, Own) and isinstance(found.node, ast.ClassDef):
            defining = self._defining(found.path)
            if defining is not None:
                return _Ancestor(_key(defining, found.node), defining, found.node)
        if isinstance(found, Foreign) and found.package not in _NO_METHODS:
            return _Ancestor(("foreign", found.package, ".".join(dotted)), package=found.package)
        if isinstance(found, Foreign) or (dotted == ["object"] and found is None):
            return _Ancestor(("builtins", ".".join(dotted)), package=class_mro.BUILTINS)
        return _Ancestor(("unknown", id(base)))


# Packages whose base classes define none of the methods a project calls on itself: object,
# typing's Generic and Protocol, abc's ABC.  Another package's base may define any.
_NO_METHODS = frozenset(("typing", "typing_extensions", "abc"))


_Ancestor = class_mro.Ancestor[_Module]


def _key(module: _Module, cls: ast.ClassDef) -> Hashable:
    return (module.path, cls.lineno, cls.col_offset)


def _first_definition(order: Sequence[_Ancestor], name: str, dispatch: str) -> Resolved:
    """The project's definition ``class_mro.first_definition`` finds, or its package."""
    found = class_mro.first_definition(order, name, assigns)
    if isinstance(found, str):
        return Foreign(found)
    if found is None:
        return None
    ancestor, item = found
    assert ancestor.module is not None
    assert ancestor.cls is not None
    return Own(ancestor.module.path, item, dispatch, ancestor.cls.name)


def _is_super(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and len(node.args) <= 2
    )


def _rooted_at_the_instance(node: ast.expr) -> bool:
    """Whether ``node`` is reached from ``self`` or ``cls`` through attributes and items."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _enclosing_class(stack: Sequence[ast.AST]) -> ast.ClassDef | None:
    """The class of the method the call is in (a function nested in the method sees its
    ``self``)."""
    for outer, inner in zip(reversed(stack[:-1]), reversed(stack[1:])):
        if isinstance(outer, ast.ClassDef) and isinstance(
            inner, (ast.FunctionDef, ast.AsyncFunctionDef)
        ):
            return outer
    return None


__all__ = ["Callees", "Project"]
