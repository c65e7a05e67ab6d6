"""The project's own sink wrappers: a function whose parameter reaches a sink is a sink too.

``def run_sql(sql): cursor.execute(sql)`` hides every caller from the checker: with ``sql``
unannotated the inner call receives Any and passes, and with ``sql: str`` the checker reports
the inner call, never the caller that passes user input.  PEP 675's fix is to annotate ``sql``
LiteralString; until a team does, this module finds such functions on the syntax trees alone,
before the run, and ``sink_outcomes`` judges each call of one on the type of what its caller
passes, revealed in the same run:

- a function or method whose parameter reaches the text of an SQL, shell, template or markup
  call (``sink_outcomes``' families), unchanged or as a part of text built there, through the
  names assigned in its body;
- transitively, across modules: a parameter that reaches a wrapper's parameter;
- in the function's closures (a function it defines and hands to a thread), and through a
  sink handed over as a value with its text (``run_in_executor(None, conn.execute, sql)``);
- through forwarding: ``*args`` to a sink's position, ``**kwargs`` to its keywords,
  ``cls(*args, **kwargs)`` in a classmethod, ``super().__init__(...)`` in a subclass of a sink
  class (``subprocess.Popen``) or of a wrapper class;
- a shell function's ``shell=`` given one of the wrapper's parameters: a call of the wrapper is
  a shell only where that parameter is true (given so, or true by default).

Calls are matched by name, so a subclass's untyped override and a project Protocol's method of
the same name are wrappers for their callers too, unless the call names a definition of the
project's own (``project_defs``): then only that definition's wrappers, or its overrides'.
The run confirms each match: the callee is revealed, and one whose signature does not name the
parameter is another function of that name.
A parameter already annotated LiteralString is no wrapper: the checker judges its callers.
"""

from __future__ import annotations

import ast
import re
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Sequence

from typing_literalstring.analysis.own_sinks import named_by_imports
from typing_literalstring.analysis.project_defs import Callees, Foreign, Own, Project, Resolved
from typing_literalstring.analysis.statements import all_nodes, all_statements, imported_packages
from typing_literalstring.analysis.unverified import Scope, binding_of, composition_parts, scopes_at
from typing_literalstring.specs.sinks import (
    MARKUP,
    SHELL,
    SINK_NAMES,
    SQL,
    SUBPROCESS_FUNCTIONS,
    TEMPLATE,
    Rule,
    callee_name,
)

# The sink families whose calls get an outcome (logging's are left to the checker).
FAMILIES = (SQL, SHELL, TEMPLATE, MARKUP)
# The names a sink's text is passed by, when it is passed by name.
TEXT_KEYWORDS = ("sql", "query", "operation", "statement", "source", "args", "cmd", "command")
_SHELL_KEYWORD_FUNCTIONS = frozenset(SUBPROCESS_FUNCTIONS)
# Rounds of "a parameter reaches a wrapper": each finds the wrappers one call further out.
_ROUNDS = 6


@dataclass(frozen=True)
class Wrapper:
    """A project function one of whose parameters reaches a sink's text."""

    name: str  # as called: the function's or method's name, a class's name for its __init__
    parameter: str  # the parameter's name; "*args" for a position reached through *args
    position: int | None  # its index among a call's positional arguments, self/cls left out
    keyword: str | None  # the name a caller may pass it by; None for a *args position
    rule: Rule  # the sink's family
    sink: str  # the sink's API, as findings name it
    chain: tuple[str, ...]  # how the parameter reaches the sink: "run_sql(sql)", "cur.execute"
    path: str
    line: int
    method: bool = False  # called only through an attribute (not a class, not a function)
    is_class: bool = False  # a class, by its __init__ or __new__
    shell: str | None = None  # the parameter that, when true, makes the sink a shell
    shell_position: int | None = None
    shell_default: bool = False
    owner: str = ""  # the class a method is defined in
    # The call in the function the parameter goes on through (line, column): when the run
    # proves that call literal (the function checked its parameter against literals), the
    # function is no wrapper after all.
    site: tuple[int, int] = (0, 0)
    bases: tuple[str, ...] = ()  # the names of the bases of the class it is defined in

    @property
    def where(self) -> str:
        return f"{Path(self.path).name}:{self.line}"

    def argument(self, call: ast.Call) -> ast.expr | None:
        """What ``call`` passes for the parameter, when it passes it plainly."""
        if self.position is not None:
            found = _positional(call.args, self.position)
            if isinstance(found, ast.expr):
                return found
            if found is not None:
                return None  # behind a `*` of the caller's
        if self.keyword is not None:
            return next((k.value for k in call.keywords if k.arg == self.keyword), None)
        return None

    def shell_given(
        self, call: ast.Call, inside: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    ) -> bool:
        """Whether ``call`` makes the sink a shell (always, for a wrapper without ``shell``).
        ``inside``: the function that holds the call, where a ``**mapping`` of its own that
        never holds the shell's keyword is seen to give none."""
        if self.shell is None:
            return True
        value = next((k.value for k in call.keywords if k.arg == self.shell), None)
        if value is None and self.shell_position is not None:
            found = _positional(call.args, self.shell_position)
            value = found if isinstance(found, ast.expr) else None
        if value is None:
            return self.shell_default or (
                any(k.arg is None for k in call.keywords)
                and not lacks_keyword(call, self.shell, inside)
            )
        return not (isinstance(value, ast.Constant) and not value.value)


Wrappers = Mapping[str, Sequence[Wrapper]]

# What may be done with a mapping of the function's own without giving it a keyword: read it.
_MAPPING_READS = frozenset(("get", "items", "keys", "values", "copy", "__contains__"))


def lacks_keyword(
    call: ast.Call, keyword: str, inside: ast.FunctionDef | ast.AsyncFunctionDef | None
) -> bool:
    """Whether every ``**mapping`` of ``call`` is a name the function ``inside`` binds only
    to dict displays (or ``dict(...)`` calls) of string keys other than ``keyword``, and
    otherwise only reads, unpacks or stores other constant keys in: a mapping of the
    function's own that cannot carry ``keyword``.  Anything else (a parameter, a module
    name, a mapping passed to a function or updated) may carry it."""
    unpacked = [k.value for k in call.keywords if k.arg is None]
    if not unpacked or inside is None:
        return False
    arguments = inside.args
    parameters = {
        a.arg
        for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        + [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    }
    parents = {
        id(child): parent for parent in ast.walk(inside) for child in ast.iter_child_nodes(parent)
    }
    for mapping in unpacked:
        if not isinstance(mapping, ast.Name) or mapping.id in parameters:
            return False
        uses = [n for n in ast.walk(inside) if isinstance(n, ast.Name) and n.id == mapping.id]
        if not any(isinstance(n.ctx, ast.Store) for n in uses):
            return False  # bound elsewhere: a module's or an enclosing function's
        for use in uses:
            if not _keeps_out(use, parents.get(id(use)), keyword, parents):
                return False
    return all(not isinstance(n, (ast.Global, ast.Nonlocal)) for n in ast.walk(inside))


def _keeps_out(
    use: ast.Name, parent: ast.AST | None, keyword: str, parents: dict[int, ast.AST]
) -> bool:
    """Whether this use of the mapping's name cannot give it ``keyword``."""

    def other_key(key: ast.expr | None) -> bool:
        return isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value != keyword

    if isinstance(use.ctx, ast.Store):
        if not (isinstance(parent, ast.Assign) and parent.targets == [use]):
            return False
        value = parent.value
        if isinstance(value, ast.Dict):
            return all(other_key(k) for k in value.keys)
        return (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "dict"
            and not value.args
            and all(k.arg is not None and k.arg != keyword for k in value.keywords)
        )
    if isinstance(use.ctx, ast.Del):
        return True
    if isinstance(parent, ast.keyword):
        return parent.arg is None  # unpacked into a call
    if isinstance(parent, ast.Subscript) and parent.value is use:
        return isinstance(parent.ctx, (ast.Load, ast.Del)) or other_key(parent.slice)
    if isinstance(parent, ast.Attribute) and parent.attr in _MAPPING_READS:
        return isinstance(parents.get(id(parent)), ast.Call)
    return False


def _positional(arguments: Sequence[ast.expr], position: int) -> ast.expr | tuple[str, int] | None:
    """The argument at ``position``; for one behind ``*name``, (name, its index in it)."""
    for index, argument in enumerate(arguments):
        if isinstance(argument, ast.Starred):
            if isinstance(argument.value, ast.Name):
                return (argument.value.id, position - index)
            return ("", position - index)
        if index == position:
            return argument
    return None


@dataclass(frozen=True)
class _Function:
    node: ast.FunctionDef | ast.AsyncFunctionDef
    cls: ast.ClassDef | None
    path: str
    calls: tuple[ast.Call, ...]
    scopes: Mapping[int, Sequence[Scope]]
    called: frozenset[str]  # every name its calls may call by (``_called_names``)
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


_FUNCTIONS: weakref.WeakKeyDictionary[ast.Module, list[_Function]] = weakref.WeakKeyDictionary()


def _functions(path: str, tree: ast.Module, project: Project | None) -> list[_Function]:
    """The module's functions that call anything, found once while the tree lives."""
    found = _FUNCTIONS.get(tree)
    if found is None:
        callees = project.callees(path, tree) if project is not None else None
        found = _FUNCTIONS[tree] = list(_find_functions(path, tree, callees))
    return found


def _find_functions(path: str, tree: ast.Module, callees: Callees | None) -> Iterator[_Function]:
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
            yield _Function(node, cls, path, calls, scopes, called, sandboxes, imported, callees)


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
        if isinstance(a, ast.Attribute) and a.attr in _HANDED_OVER
    }
    if cls is not None:  # cls(...) and super().__init__(...)
        names |= {cls.name, *(callee_name(b) for b in cls.bases)}
    return frozenset(n for n in names if n is not None)


_SINKS = frozenset(n for n, (rule, _) in SINK_NAMES.items() if rule in FAMILIES)
# The sinks' verbs a method handed over with its text is named by (``_sink_handed_over``).
_HANDED_OVER = frozenset(
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


def infer(
    modules: Mapping[str, ast.Module], project: Project | None = None
) -> dict[str, list[Wrapper]]:
    """The wrappers the modules define, by the name they are called by.  Each round asks
    only the functions that call a sink (the first) or a wrapper found in the round before.
    ``project``: what the calls name in the checked project (``project_defs``), so that a
    call of the project's own ``execute`` or ``SQL`` is no sink by its name."""
    functions = [
        f for path, tree in sorted(modules.items()) for f in _functions(path, tree, project)
    ]
    found: dict[str, list[Wrapper]] = {}
    seen: set[tuple[str, str, int]] = set()
    new_names: frozenset[str] = _SINKS
    for _ in range(_ROUNDS):
        added: set[str] = set()
        for function in functions:
            if not function.called & new_names:
                continue
            for wrapper in _wrappers_of(function, found):
                key = (wrapper.name, wrapper.parameter, wrapper.line)
                if key not in seen:
                    seen.add(key)
                    found.setdefault(wrapper.name, []).append(wrapper)
                    added.add(wrapper.name)
        if not added:
            break
        new_names = frozenset(added)
    return found


@dataclass(frozen=True)
class _Target:
    """Where a call inside a function sends a sink's text."""

    argument: ast.expr | tuple[str, int] | None  # the text, or (a `*name`, the index in it)
    forwarded: str | None  # the keyword the text may come by through the caller's **kwargs
    rule: Rule
    sink: str
    chain: tuple[str, ...]
    shell: ast.expr | None  # what the call gives the shell parameter; None: a shell anyway
    shell_name: str | None
    shell_default: bool


def _wrappers_of(function: _Function, known: Wrappers) -> Iterator[Wrapper]:
    node = function.node
    positional = [*node.args.posonlyargs, *node.args.args][function.skipped :]
    position = {a.arg: i for i, a in enumerate(positional)}
    keyword_ok = {a.arg for a in [*node.args.args, *node.args.kwonlyargs]}
    annotations = {
        a.arg: a.annotation
        for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    }
    vararg = node.args.vararg.arg if node.args.vararg else None
    kwarg = node.args.kwarg.arg if node.args.kwarg else None
    defaults = _defaults(node)
    for call in function.calls:
        for target in _targets(call, function, known, kwarg):
            shell, shell_position, shell_default = None, None, False
            if target.shell is not None:
                if isinstance(target.shell, ast.Constant):
                    if not target.shell.value:
                        continue
                else:
                    shell_param = _parameter(target.shell, function)
                    if shell_param is not None:
                        shell = shell_param
                        shell_position = position.get(shell_param)
                        shell_default = bool(defaults.get(shell_param, False))
            elif target.shell_name is not None:
                if lacks_keyword(call, target.shell_name, node):
                    # The shell could come only through a `**mapping` the function builds
                    # itself and never gives that keyword (lektor's Command builds cwd, env
                    # and stdout for `portable_popen(argline, **kwargs)`): no shell.
                    continue
                if kwarg is not None:
                    shell, shell_default = target.shell_name, target.shell_default
            argument = target.argument
            reached: list[tuple[str, int | None, str | None]] = []
            if isinstance(argument, tuple):
                name, index = argument
                if name and name == vararg:
                    reached.append((f"*{vararg}", len(positional) + index, None))
            elif argument is not None:
                for parameter in _parameters_in(argument, function):
                    if not _may_be_text(annotations.get(parameter)):
                        continue
                    keyword = parameter if parameter in keyword_ok else None
                    reached.append((parameter, position.get(parameter), keyword))
            if target.forwarded is not None and kwarg is not None and argument is None:
                reached.append((f"**{kwarg}", None, target.forwarded))
            for parameter, at, keyword in reached:
                yield Wrapper(
                    function.called_as,
                    parameter,
                    at,
                    keyword,
                    target.rule,
                    target.sink,
                    (f"{function.called_as}({parameter.lstrip('*')})", *target.chain),
                    function.path,
                    node.lineno,
                    function.method,
                    function.called_as != node.name,
                    shell,
                    shell_position,
                    shell_default,
                    function.cls.name if function.cls is not None else "",
                    (call.lineno, call.col_offset + 1),
                    _base_names(function.cls),
                )


def _base_names(cls: ast.ClassDef | None) -> tuple[str, ...]:
    if cls is None:
        return ()
    return tuple(n for n in (callee_name(b) for b in cls.bases) if n is not None)


def is_defined_by(wrapper: Wrapper, resolved: Own) -> bool:
    """Whether the wrapper is the project's definition a call names, or overrides it in a
    direct subclass (a method called on ``self`` may be a subclass's)."""
    if resolved.holds(wrapper.path, wrapper.line):
        return True
    return bool(resolved.owner) and resolved.owner in wrapper.bases


def _defaults(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, object]:
    """Each parameter's default, when it is a constant."""
    out: dict[str, object] = {}
    positional = [*node.args.posonlyargs, *node.args.args]
    for argument, default in zip(
        positional[len(positional) - len(node.args.defaults) :], node.args.defaults
    ):
        if isinstance(default, ast.Constant):
            out[argument.arg] = default.value
    for keyword, value in zip(node.args.kwonlyargs, node.args.kw_defaults):
        if isinstance(value, ast.Constant):
            out[keyword.arg] = value.value
    return out


# Annotations of values that no injection is made of: a number formatted into the text.
_NOT_TEXT = frozenset(("int", "float", "bool", "complex", "None", "Optional", "Union", "Decimal"))


def _may_be_text(annotation: ast.expr | None) -> bool:
    """Whether a parameter so annotated may carry injected text: not when LiteralString (the
    checker judges its callers) nor when only numbers (``limit: int``)."""
    if annotation is None:
        return True
    names = {
        n.id
        if isinstance(n, ast.Name)
        else n.attr
        if isinstance(n, ast.Attribute)
        else str(n.value)
        for n in ast.walk(annotation)
        if isinstance(n, (ast.Name, ast.Attribute))
        or (isinstance(n, ast.Constant) and n.value is None)
    }
    if any("LiteralString" in name for name in names) or "LiteralString" in ast.dump(annotation):
        return False
    return not names or not names <= _NOT_TEXT


def _targets(
    call: ast.Call, function: _Function, known: Wrappers, kwarg: str | None
) -> Iterator[_Target]:
    """The sinks and known wrappers ``call`` passes text to."""
    names = _called_names(call, function)
    text = _text_of(call)
    # `super().convert(...)` calls a base class's method: a project wrapper only when it is
    # defined in one of the class's bases, not any project function that shares its name
    # (click's Choice.convert in sqlite-utils).
    bases: frozenset[str] | None = None
    if (
        isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Call)
        and callee_name(call.func.value.func) == "super"
        and call.func.attr not in ("__init__", "__new__")
    ):
        cls = function.cls
        bases = frozenset(
            n for n in (callee_name(b) for b in (cls.bases if cls else [])) if n is not None
        )
    yield from _sink_handed_over(call)
    sink_reads_a_parameter = isinstance(text, ast.expr) and any(_parameters_in(text, function))
    resolved: Resolved = None
    if function.callees is not None and any(n in SINK_NAMES or n in known for n in names):
        resolved = function.callees.of(call)
    for name in names:
        shown = _shown(call) if name == callee_name(call.func) else name
        if (
            resolved is None
            and name in SINK_NAMES
            and SINK_NAMES[name][0] in FAMILIES
            and name != "extra"
            and not _on_a_sandbox(call, function)
        ):
            rule, api = SINK_NAMES[name]
            api = named_by_imports(name, api, function.imported)
            given: ast.expr | None = None
            if name in _SHELL_KEYWORD_FUNCTIONS:
                given = next((k.value for k in call.keywords if k.arg == "shell"), None)
                if given is None:
                    if kwarg is None or not any(k.arg is None for k in call.keywords):
                        continue  # no shell: an argument list, argv_shell's business
                    yield _Target(text, None, rule, api, (shown,), None, "shell", False)
                    continue
            yield _Target(text, None, rule, api, (shown,), given, None, False)
        for wrapper in known.get(name, ()):
            if wrapper.method and not isinstance(call.func, ast.Attribute):
                continue
            if isinstance(resolved, Foreign) or (
                isinstance(resolved, Own) and not is_defined_by(wrapper, resolved)
            ):
                continue  # another function of the wrapper's name
            if resolved is None and name in _SINKS and bases is None and sink_reads_a_parameter:
                # Named like a sink on a receiver out of view, its text one of the function's
                # parameters (`cursor.execute(sql, params)` in datasette's Database.execute):
                # the sink, not the project's `execute(db_name, sql, params)` by its name.
                # (Pony's `provider.execute(cursor, sql, arguments)` passes no text first:
                # its own `execute` is the likelier callee.)
                continue
            if bases is not None and wrapper.owner not in bases:
                continue
            argument: ast.expr | tuple[str, int] | None = None
            if wrapper.position is not None:
                argument = _positional(call.args, wrapper.position)
            if argument is None and wrapper.keyword is not None:
                argument = next((k.value for k in call.keywords if k.arg == wrapper.keyword), None)
            forwards = any(k.arg is None for k in call.keywords)
            if argument is None and not forwards:
                continue
            shell: ast.expr | None = None
            shell_name: str | None = None
            if wrapper.shell is not None and not wrapper.shell_default:
                shell = next((k.value for k in call.keywords if k.arg == wrapper.shell), None)
                if shell is None and wrapper.shell_position is not None:
                    found = _positional(call.args, wrapper.shell_position)
                    shell = found if isinstance(found, ast.expr) else None
                if shell is None:
                    if not forwards:
                        continue  # no shell at this call
                    shell_name = wrapper.shell
            yield _Target(
                argument,
                wrapper.keyword if argument is None and forwards else None,
                wrapper.rule,
                wrapper.sink,
                wrapper.chain,
                shell,
                shell_name,
                False,
            )


def _sink_handed_over(call: ast.Call) -> Iterator[_Target]:
    """A sink passed as a value with its text after it, to be called elsewhere:
    ``loop.run_in_executor(None, conn.execute, sql)``, ``executor.submit(cur.execute, sql)``,
    ``functools.partial(conn.execute, sql)``: a method of an object, named like a sink's verb
    (a name such as ``text`` or ``raw`` is most often a variable: web.py's
    ``lstrips(text, remove)``).  Not the shell functions that need ``shell=``, which cannot
    be handed over with it so."""
    for index, value in enumerate(call.args[:-1]):
        if not isinstance(value, ast.Attribute) or value.attr not in _HANDED_OVER:
            continue
        name = value.attr
        text = call.args[index + 1]
        if isinstance(text, ast.Starred):
            continue
        rule, api = SINK_NAMES[name]
        yield _Target(text, None, rule, api, (_shown_value(value),), None, None, False)


def _shown_value(node: ast.expr) -> str:
    unparse = getattr(ast, "unparse", None)
    return str(unparse(node)) if unparse is not None else callee_name(node) or "?"


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


def _on_a_sandbox(call: ast.Call, function: _Function) -> bool:
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


def _text_of(call: ast.Call) -> ast.expr | tuple[str, int] | None:
    """A sink call's text argument, or the ``*name`` it is in."""
    first = _positional(call.args, 0)
    if first is not None:
        return first
    return next((k.value for k in call.keywords if k.arg in TEXT_KEYWORDS), None)


def _called_names(call: ast.Call, function: _Function) -> list[str]:
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


def _parameter(node: ast.expr, function: _Function) -> str | None:
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


def _parameters_in(argument: ast.expr, function: _Function, depth: int = 0) -> Iterator[str]:
    """The function's parameters the text is, or is built from, through names assigned in
    its body."""
    items: Iterable[ast.expr] = (
        argument.elts if isinstance(argument, (ast.List, ast.Tuple)) else [argument]
    )
    for item in items:
        for part in composition_parts(item):
            if not isinstance(part, ast.Name):
                continue
            parameter = _parameter(part, function)
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
                yield from _parameters_in(binding.value, function, depth + 1)


def _shown(call: ast.Call) -> str:
    return _shown_value(call.func)


def calling(text: str, names: Iterable[str]) -> bool:
    """Whether a file's text may call one of the wrappers (cheap: on its text)."""
    pattern = _pattern(tuple(sorted(names)))
    return pattern is not None and pattern.search(text) is not None


_PATTERNS: dict[tuple[str, ...], re.Pattern[str] | None] = {}


def _pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    if names not in _PATTERNS:
        _PATTERNS[names] = (
            re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\s*\(") if names else None
        )
    return _PATTERNS[names]


__all__ = [
    "FAMILIES",
    "TEXT_KEYWORDS",
    "Wrapper",
    "Wrappers",
    "calling",
    "imports_a_sandbox",
    "infer",
    "is_defined_by",
]
