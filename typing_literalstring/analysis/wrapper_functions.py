"""A module's functions as the wrapper inference reads them: each function's calls (its
closures' too), the names they call by, its parameters and the names built from them.

``wrappers`` asks these of every function that calls a sink or a wrapper; they read one
function at a time and know nothing of sinks beyond the names in ``specs.sinks``.
"""

from __future__ import annotations

import ast
import re
import weakref
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping, Sequence

from typing_literalstring.analysis.project_defs import Callees, Project
from typing_literalstring.analysis.scoped_bindings import Scope, binding_of, scopes_at
from typing_literalstring.analysis.statements import all_nodes, all_statements, imported_packages
from typing_literalstring.analysis.unverified import composition_parts
from typing_literalstring.analysis.wrapper_calls import TEXT_KEYWORDS, argument_at
from typing_literalstring.specs.sinks import callee_name


@dataclass(frozen=True)
class Function:
    node: ast.FunctionDef | ast.AsyncFunctionDef
    cls: ast.ClassDef | None
    path: str
    calls: tuple[ast.Call, ...]
    scopes: Mapping[int, Sequence[Scope]]
    called: frozenset[str]  # every name its calls may call by (``called_names``)
    sandboxes: bool = False  # its module imports Jinja2's sandbox module
    imported: frozenset[str] = frozenset()  # the packages its module imports, anywhere
    callees: Callees | None = None  # what its module's calls name in the project

    @property
    def skipped(self) -> int:
        """How many leading parameters a call does not pass: self or cls."""
        if self.cls is None:
            return 0
        names = {callee_name(d) for d in self.node.decorator_list}
        return 0 if "staticmethod" in names else 1

    @property
    def called_as(self) -> str:
        if self.cls is not None and self.node.name in ("__init__", "__new__"):
            return self.cls.name
        return self.node.name

    @property
    def method(self) -> bool:
        return self.cls is not None and self.called_as == self.node.name


_FUNCTIONS: weakref.WeakKeyDictionary[ast.Module, list[Function]] = weakref.WeakKeyDictionary()


def module_functions(path: str, tree: ast.Module, project: Project | None) -> list[Function]:
    """The module's functions that call anything, found once while the tree lives."""
    found = _FUNCTIONS.get(tree)
    if found is None:
        callees = project.callees(path, tree) if project is not None else None
        found = _FUNCTIONS[tree] = list(_find_functions(path, tree, callees))
    return found


def _find_functions(path: str, tree: ast.Module, callees: Callees | None) -> Iterator[Function]:
    scopes = scopes_at(tree)
    classes = {
        id(item): node
        for node in all_statements(tree)
        if isinstance(node, ast.ClassDef)
        for item in node.body
    }
    owned = _calls_by_function(tree)
    sandboxes = imports_a_sandbox(tree)
    imported = imported_packages(tree)
    # A function's calls include its closures': datasette 0.65.5's Database.execute runs
    # `conn.execute(sql, ...)` in a function it defines and hands to a thread.
    own = {key: list(calls) for key, calls in owned.items()}
    for inner, outer in _enclosing_functions(tree):
        owned.setdefault(id(outer), []).extend(own.get(id(inner), []))
    for node in all_statements(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and owned.get(id(node)):
            calls = tuple(owned[id(node)])
            cls = classes.get(id(node))
            called = _names_called(calls, cls)
            yield Function(node, cls, path, calls, scopes, called, sandboxes, imported, callees)


def _enclosing_functions(
    tree: ast.Module,
) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, ast.AST]]:
    """(a function, each function that encloses it): one sweep of the functions in source
    order over a stack of the open ones."""
    functions = sorted(
        (n for n in all_statements(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
        key=lambda n: (n.lineno, n.col_offset),
    )
    open_: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for function in functions:
        while open_ and (open_[-1].end_lineno or 0) < function.lineno:
            open_.pop()
        for outer in open_:
            yield function, outer
        open_.append(function)


def _calls_by_function(tree: ast.Module) -> dict[int, list[ast.Call]]:
    """id(function) -> the calls in its body, not in the functions nested in it: one sweep of
    the file's calls in source order over the functions' nested spans (a walk of each
    function's own nodes took 0.19 s on sqlite-utils)."""
    spans = sorted(
        (
            (node.body[0].lineno, node.body[0].col_offset),
            (node.end_lineno or node.lineno, node.end_col_offset or 0),
            node,
        )
        for node in all_statements(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    )
    calls = sorted(
        (n for n in all_nodes(tree) if isinstance(n, ast.Call)),
        key=lambda c: (c.lineno, c.col_offset),
    )
    owned: dict[int, list[ast.Call]] = {}
    open_spans: list[tuple[tuple[int, int], tuple[int, int], ast.AST]] = []
    index = 0
    for call in calls:
        at = (call.lineno, call.col_offset)
        while index < len(spans) and spans[index][0] <= at:
            while open_spans and open_spans[-1][1] < spans[index][0]:
                open_spans.pop()
            open_spans.append(spans[index])
            index += 1
        while open_spans and open_spans[-1][1] < at:
            open_spans.pop()
        if open_spans:
            owned.setdefault(id(open_spans[-1][2]), []).append(call)
    return owned


def _names_called(calls: Sequence[ast.Call], cls: ast.ClassDef | None) -> frozenset[str]:
    names = {callee_name(c.func) for c in calls}
    names |= {  # a sink handed over as a value (``_sink_handed_over``)
        callee_name(a)
        for c in calls
        for a in c.args
        if isinstance(a, ast.Attribute) and a.attr in HANDED_OVER
    }
    if cls is not None:  # cls(...) and super().__init__(...)
        names |= {cls.name, *(callee_name(b) for b in cls.bases)}
    return frozenset(n for n in names if n is not None)


# The sinks' verbs a method handed over with its text is named by (``_sink_handed_over``).
HANDED_OVER = frozenset(
    [
        "execute",
        "executemany",
        "executescript",
        "exec_driver_sql",
        "system",
        "popen",
        "getoutput",
        "getstatusoutput",
        "from_string",
        "render_template_string",
        "mark_safe",
    ]
)


_SANDBOX = re.compile(r"(?:Immutable)?SandboxedEnvironment$")


def imports_a_sandbox(tree: ast.Module) -> bool:
    """Whether a module imports Jinja2's sandbox module: a class only named
    SandboxedEnvironment (a project's own subclass of Environment, sandboxing nothing) must
    not clear a finding."""
    return any(
        (isinstance(node, ast.ImportFrom) and node.module == "jinja2.sandbox")
        or (isinstance(node, ast.Import) and any(a.name == "jinja2.sandbox" for a in node.names))
        for node in all_statements(tree)
    )


def on_a_sandbox(call: ast.Call, function: Function) -> bool:
    """Whether a template is compiled on one of Jinja2's sandboxes made in view
    (``SandboxedEnvironment().from_string(t)``, ``env = SandboxedEnvironment()`` first): no
    sink, as ``sink_outcomes`` finds in the run for the call itself (haystack-ai 2.3.1)."""
    if not isinstance(call.func, ast.Attribute) or not function.sandboxes:
        return False
    receiver = call.func.value
    if isinstance(receiver, ast.Name):
        binding = binding_of(receiver, function.scopes.get(id(receiver), []))
        if binding is None or binding.kind != "assigned" or binding.value is None:
            return False
        receiver = binding.value
    return isinstance(receiver, ast.Call) and bool(_SANDBOX.match(callee_name(receiver.func) or ""))


def text_of(call: ast.Call) -> ast.expr | tuple[str, int] | None:
    """A sink call's text argument, or the ``*name`` it is in."""
    first = argument_at(call.args, 0)
    if first is not None:
        return first
    return next((k.value for k in call.keywords if k.arg in TEXT_KEYWORDS), None)


def called_names(call: ast.Call, function: Function) -> list[str]:
    """The names ``call`` calls by: its own, the class for ``cls(...)``, and the bases' names
    for ``super().__init__(...)``."""
    func = call.func
    cls = function.cls
    if cls is not None and isinstance(func, ast.Name) and func.id == "cls":
        return [cls.name]
    if (
        cls is not None
        and isinstance(func, ast.Attribute)
        and func.attr in ("__init__", "__new__")
        and isinstance(func.value, ast.Call)
        and callee_name(func.value.func) == "super"
    ):
        return [n for n in (callee_name(b) for b in cls.bases) if n is not None]
    name = callee_name(func)
    return [] if name is None else [name]


def own_parameter(node: ast.expr, function: Function) -> str | None:
    """The function's own parameter that ``node`` is, when it is one."""
    if not isinstance(node, ast.Name) or node.id in ("self", "cls"):
        return None
    scopes = function.scopes.get(id(node), [])
    binding = binding_of(node, scopes)
    if binding is None or binding.kind != "parameter" or not scopes:
        return None
    if scopes[0].node is function.node:
        return node.id
    # In a closure: the function's own parameter when no scope between rebinds it.
    return (
        node.id
        if binding.line == function.node.lineno and any(s.node is function.node for s in scopes)
        else None
    )


def parameters_in(argument: ast.expr, function: Function, depth: int = 0) -> Iterator[str]:
    """The function's parameters the text is, or is built from, through names assigned in
    its body."""
    items: Iterable[ast.expr] = (
        argument.elts if isinstance(argument, (ast.List, ast.Tuple)) else [argument]
    )
    for item in items:
        for part in composition_parts(item):
            if not isinstance(part, ast.Name):
                continue
            parameter = own_parameter(part, function)
            if parameter is not None:
                yield parameter
                continue
            scopes = function.scopes.get(id(part), [])
            binding = binding_of(part, scopes)
            if (
                depth < 3
                and binding is not None
                and binding.kind == "assigned"
                and binding.value is not None
            ):
                yield from parameters_in(binding.value, function, depth + 1)


def shown_value(node: ast.expr) -> str:
    unparse = getattr(ast, "unparse", None)
    return str(unparse(node)) if unparse is not None else callee_name(node) or "?"


def shown_callee(call: ast.Call) -> str:
    return shown_value(call.func)
