"""Where each name of a module is bound, and to what: the index ``literal_idioms`` judges on.

Pure ``ast``, Python's own scoping rules: a module, each function, lambda, class body and
comprehension is a scope; a name used in a function resolves to the function's own bindings,
else to the enclosing functions' (class bodies skipped), else to the module's; ``global`` and
``nonlocal`` make a name bound from elsewhere.  Each binding keeps what the name is given:

- ``value``: an assignment, an annotated assignment with a value, a walrus, or one element of
  an unpacking whose value is a display of the same length (``a, b = "x", "y"``);
- ``items``: a ``for`` or comprehension target, given the items of its iterable;
- ``aug``: ``name op= value`` (the operator kept);
- ``opaque``: anything else (a parameter, an import, ``with ... as``, ``except ... as``, a
  ``def`` or ``class``, a starred or unmatched unpacking, a ``match`` capture).

The uses of each name (where it is read) are kept with the node around them, so that a list
that something may change (``names.append(user)``, passed to a function) can be told from one
only iterated.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import NamedTuple, Tuple

VALUE = "value"
ITEMS = "items"
AUG = "aug"
OPAQUE = "opaque"

# (line, column, end line, end column), as ``ast`` counts them (columns in UTF-8 bytes).
Span = Tuple[int, int, int, int]


class Binding(NamedTuple):
    kind: str  # VALUE, ITEMS, AUG or OPAQUE
    node: ast.expr | None = None  # the value, the iterable, or the right operand of `op=`
    op: ast.operator | None = None  # AUG: the operator


@dataclass(eq=False)
class Scope:
    node: ast.AST
    kind: str  # "module", "function", "class" or "comprehension"
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=lambda: {})
    # `global` (module) or `nonlocal` (an enclosing function) names: bound from elsewhere.
    declared: dict[str, str] = field(default_factory=lambda: {})
    # Names a nested function rebinds through `nonlocal`, or any function through `global`.
    rebound_elsewhere: set[str] = field(default_factory=lambda: set())
    star_import: bool = False

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)


class Use(NamedTuple):
    """A read of a name: the ``Name`` node, the node holding it, and the field it sits in."""

    name: ast.Name
    parent: ast.AST
    field: str


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
# Calls that only show a value: the checkers' `reveal_type`, and the questions `check` inserts
# in the copies it has checked (checkers/asking.py: its probe module's reveal and judges, named
# with a secret after these prefixes; specs/argv_shell's reveal for --report-any; a test keeps
# the names equal).  A name read there is read, not handed to code that may change it.
REVEALS = frozenset(("reveal_type", "typing_literalstring_reveal"))
PROBE_PREFIXES = ("_tls_reveal_", "_tls_judge_", "_tls_judged_")


def is_reveal(name: str) -> bool:
    return name in REVEALS or name.startswith(PROBE_PREFIXES)


# `match` capture patterns (3.10+) bind their `name` (or a mapping's `rest`).
_CAPTURES = tuple(
    getattr(ast, n) for n in ("MatchAs", "MatchStar", "MatchMapping") if hasattr(ast, n)
)


class Index:
    """Every scope of one module, each name's bindings and uses, and each expression by span."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.module = Scope(tree, "module", None)
        self.scope_of: dict[int, Scope] = {}  # id(Name node) -> the scope it is read in
        self.uses: dict[str, list[Use]] = {}
        self.revealed: set[int] = set()  # ids of the Name nodes inside a reveal (REVEALS)
        self.by_span: dict[Span, ast.expr] = {}
        # Nodes still to read, with their scope, parent and field: a loop, not recursion, so
        # that a long chain of `+` (generated SQL) does not reach the recursion limit.
        self._todo: list[tuple[ast.AST, Scope, ast.AST | None, str]] = []
        self._visit_body(tree.body, self.module)
        while self._todo:
            self._step(*self._todo.pop())
        self._spans()

    # -- reading the tree ---------------------------------------------------------------------
    def _spans(self) -> None:
        """Each expression by its span, the outermost first (an f-string's parts share its
        span before Python 3.12): ``ast.walk`` goes breadth first."""
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.expr):
                continue
            end_line, end_column = node.end_lineno, node.end_col_offset
            if end_line is not None and end_column is not None:
                key = (node.lineno, node.col_offset, end_line, end_column)
                self.by_span.setdefault(key, node)

    def _visit_body(self, body: list[ast.stmt], scope: Scope) -> None:
        for statement in body:
            self._visit(statement, scope, None, "")

    def _visit(self, node: ast.AST, scope: Scope, parent: ast.AST | None, where: str) -> None:
        self._todo.append((node, scope, parent, where))

    def _step(self, node: ast.AST, scope: Scope, parent: ast.AST | None, where: str) -> None:
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                self.scope_of[id(node)] = scope
                if parent is not None:
                    self.uses.setdefault(node.id, []).append(Use(node, parent, where))
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._definition(node, scope)
            return
        if isinstance(node, ast.Lambda):
            self._children(node.args, scope)
            inner = Scope(node, "function", scope)
            self._bind_parameters(node.args, inner)
            self._visit(node.body, inner, node, "body")
            return
        if isinstance(node, _COMPREHENSIONS):
            self._comprehension(node, scope)
            return
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and is_reveal(node.func.id)
        ):
            self.revealed.update(id(n) for a in node.args for n in ast.walk(a))
        self._bindings(node, scope)
        self._children(node, scope)

    def _children(self, node: ast.AST, scope: Scope) -> None:
        for name, value in ast.iter_fields(node):
            if isinstance(value, list):
                for item in value:  # pyright: ignore[reportUnknownVariableType]
                    if isinstance(item, ast.AST):
                        self._visit(item, scope, node, name)
            elif isinstance(value, ast.AST):
                self._visit(value, scope, node, name)

    def _definition(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, scope: Scope
    ) -> None:
        scope.bind(node.name, Binding(OPAQUE))
        for decorator in node.decorator_list:
            self._visit(decorator, scope, node, "decorator_list")
        if isinstance(node, ast.ClassDef):
            for base in [*node.bases, *(k.value for k in node.keywords)]:
                self._visit(base, scope, node, "bases")
            self._visit_body(node.body, Scope(node, "class", scope))
            return
        # Defaults and annotations are evaluated where the function is defined.
        self._children(node.args, scope)
        if node.returns is not None:
            self._visit(node.returns, scope, node, "returns")
        inner = Scope(node, "function", scope)
        self._bind_parameters(node.args, inner)
        self._visit_body(node.body, inner)

    @staticmethod
    def _bind_parameters(args: ast.arguments, scope: Scope) -> None:
        every = [*getattr(args, "posonlyargs", []), *args.args, *args.kwonlyargs]
        every += [a for a in (args.vararg, args.kwarg) if a is not None]
        for arg in every:
            scope.bind(arg.arg, Binding(OPAQUE))

    def _comprehension(self, node: ast.expr, scope: Scope) -> None:
        generators: list[ast.comprehension] = getattr(node, "generators", [])
        inner = Scope(node, "comprehension", scope)
        for number, generator in enumerate(generators):
            # The first iterable is evaluated in the enclosing scope, the rest inside.
            self._visit(generator.iter, scope if number == 0 else inner, generator, "iter")
            self._bind_target(generator.target, inner, ITEMS, generator.iter)
            self._visit(generator.target, inner, generator, "target")
            for condition in generator.ifs:
                self._visit(condition, inner, generator, "ifs")
        for name in ("elt", "key", "value"):
            part = getattr(node, name, None)
            if isinstance(part, ast.AST):
                self._visit(part, inner, node, name)

    # -- bindings -----------------------------------------------------------------------------
    def _bindings(self, node: ast.AST, scope: Scope) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self._bind_target(target, scope, VALUE, node.value)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self._bind_target(node.target, scope, VALUE, node.value)
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.target, ast.Name):
                scope.bind(node.target.id, Binding(AUG, node.value, node.op))
        elif isinstance(node, ast.NamedExpr):
            # A walrus in a comprehension binds in the enclosing function or module.
            owner = scope
            while owner.kind == "comprehension" and owner.parent is not None:
                owner = owner.parent
            self._bind_target(node.target, owner, VALUE, node.value)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self._bind_target(node.target, scope, ITEMS, node.iter)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    self._bind_target(item.optional_vars, scope, OPAQUE, None)
        elif isinstance(node, ast.ExceptHandler):
            if node.name:
                scope.bind(node.name, Binding(OPAQUE))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    scope.star_import = True
                else:
                    scope.bind(alias.asname or alias.name.split(".")[0], Binding(OPAQUE))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            self._declare(node, scope)
        elif isinstance(node, _CAPTURES):
            for attribute in ("name", "rest"):
                captured = getattr(node, attribute, None)
                if isinstance(captured, str):
                    scope.bind(captured, Binding(OPAQUE))

    def _declare(self, node: ast.Global | ast.Nonlocal, scope: Scope) -> None:
        kind = "global" if isinstance(node, ast.Global) else "nonlocal"
        for name in node.names:
            scope.declared[name] = kind
            if kind == "global":
                self.module.rebound_elsewhere.add(name)
                continue
            outer = scope.parent
            while outer is not None and outer.kind != "module":
                outer.rebound_elsewhere.add(name)
                outer = outer.parent

    def _bind_target(
        self, target: ast.expr, scope: Scope, kind: str, value: ast.expr | None
    ) -> None:
        if isinstance(target, ast.Name):
            scope.bind(target.id, Binding(kind, value))
        elif isinstance(target, (ast.Tuple, ast.List)):
            elements = _display_elements(value) if kind == VALUE else None
            if elements is not None and len(elements) == len(target.elts):
                for element, part in zip(target.elts, elements):
                    self._bind_target(element, scope, VALUE, part)
                return
            for element in target.elts:
                self._bind_target(element, scope, OPAQUE, None)
        elif isinstance(target, ast.Starred):
            self._bind_target(target.value, scope, OPAQUE, None)

    # -- answers ------------------------------------------------------------------------------
    def bindings(self, name: ast.Name) -> list[Binding] | None:
        """Every binding the name read at ``name`` may hold; None when one may come from
        elsewhere (a parameter is a binding, a builtin or an unknown name is None)."""
        scope = self.scope_of.get(id(name))
        if scope is None:
            return None
        found = self.owner(name)
        if found is None or name.id in found.rebound_elsewhere or found.star_import:
            return None
        return found.bindings.get(name.id)

    def owner(self, name: ast.Name) -> Scope | None:
        """The scope whose binding of the name ``name`` reads (None: builtins or unknown)."""
        scope = self.scope_of.get(id(name))
        first = True
        while scope is not None:
            declared = scope.declared.get(name.id)
            if declared == "global":
                return self.module if name.id in self.module.bindings else None
            if declared == "nonlocal":
                return None
            if (first or scope.kind != "class") and (
                name.id in scope.bindings or scope.star_import
            ):
                return scope
            first = False
            scope = scope.parent
        return None

    def is_builtin(self, name: ast.expr, builtin: str) -> bool:
        """Whether ``name`` reads the builtin ``builtin``, not a name of the module."""
        return isinstance(name, ast.Name) and name.id == builtin and self.owner(name) is None


def _display_elements(value: ast.expr | None) -> list[ast.expr] | None:
    if isinstance(value, (ast.Tuple, ast.List)) and not any(
        isinstance(e, ast.Starred) for e in value.elts
    ):
        return list(value.elts)
    return None
