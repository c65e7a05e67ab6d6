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
from dataclasses import dataclass
from typing import Iterator, Mapping

from typing_literalstring.analysis.callee_kinds import Foreign, Own, Resolved
from typing_literalstring.analysis.own_sinks import named_by_imports
from typing_literalstring.analysis.project_defs import Project
from typing_literalstring.analysis.wrapper_calls import (
    FAMILIES,
    Wrapper,
    Wrappers,
    argument_at,
    is_defined_by,
    lacks_keyword,
)
from typing_literalstring.analysis.wrapper_functions import (
    HANDED_OVER,
    Function,
    called_names,
    module_functions,
    on_a_sandbox,
    own_parameter,
    parameters_in,
    shown_callee,
    shown_value,
    text_of,
)
from typing_literalstring.specs.sinks import SINK_NAMES, SUBPROCESS_FUNCTIONS, Rule, callee_name

_SHELL_KEYWORD_FUNCTIONS = frozenset(SUBPROCESS_FUNCTIONS)


# Rounds of "a parameter reaches a wrapper": each finds the wrappers one call further out.
_ROUNDS = 6


def infer(
    modules: Mapping[str, ast.Module], project: Project | None = None
) -> dict[str, list[Wrapper]]:
    """The wrappers the modules define, by the name they are called by.  Each round asks
    only the functions that call a sink (the first) or a wrapper found in the round before.
    ``project``: what the calls name in the checked project (``project_defs``), so that a
    call of the project's own ``execute`` or ``SQL`` is no sink by its name."""
    functions = [
        f for path, tree in sorted(modules.items()) for f in module_functions(path, tree, project)
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


_SINKS = frozenset(n for n, (rule, _) in SINK_NAMES.items() if rule in FAMILIES)


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


def _wrappers_of(function: Function, known: Wrappers) -> Iterator[Wrapper]:
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
                    shell_param = own_parameter(target.shell, function)
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
                for parameter in parameters_in(argument, function):
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
    call: ast.Call, function: Function, known: Wrappers, kwarg: str | None
) -> Iterator[_Target]:
    """The sinks and known wrappers ``call`` passes text to."""
    names = called_names(call, function)
    text = text_of(call)
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
    sink_reads_a_parameter = isinstance(text, ast.expr) and any(parameters_in(text, function))
    resolved: Resolved = None
    if function.callees is not None and any(n in SINK_NAMES or n in known for n in names):
        resolved = function.callees.of(call)
    for name in names:
        shown = shown_callee(call) if name == callee_name(call.func) else name
        if (
            resolved is None
            and name in SINK_NAMES
            and SINK_NAMES[name][0] in FAMILIES
            and name != "extra"
            and not on_a_sandbox(call, function)
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
                argument = argument_at(call.args, wrapper.position)
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
                    found = argument_at(call.args, wrapper.shell_position)
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
        if not isinstance(value, ast.Attribute) or value.attr not in HANDED_OVER:
            continue
        name = value.attr
        text = call.args[index + 1]
        if isinstance(text, ast.Starred):
            continue
        rule, api = SINK_NAMES[name]
        yield _Target(text, None, rule, api, (shown_value(value),), None, None, False)


__all__ = ["infer"]
