"""What the one tightened run is asked about each sink call.

Each SQL, shell, template, markup and logging call of a probed file (``probes``), each call of
the project's own wrappers of one (``wrappers``), and each shell started through an argument
list (``specs.argv_shell``) is a ``Look``: its text argument (``sink_texts``), the parts that
text is composed of (``unverified.composition_parts``, through the names assigned in view) and,
for a method or a name whose sink the checker may not see, its callee.  ``sink_asks`` asks the
checker about them in the copy, next to the call; ``verdicts`` reads the answers.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Iterable, Sequence, Union

from typing_literalstring.analysis import own_sinks
from typing_literalstring.analysis.callee_kinds import Foreign, Own
from typing_literalstring.analysis.callees import imported_names
from typing_literalstring.analysis.project_defs import Callees
from typing_literalstring.analysis.sink_aliases import Assigned, assigned_sinks
from typing_literalstring.analysis.sink_texts import (
    composed_in_view,
    literal_pieces,
    shell_in_view,
    shell_mapping,
    subprocess_callees,
    text_argument,
    unpacked_text,
)
from typing_literalstring.analysis.statements import all_nodes, all_statements, imported_packages
from typing_literalstring.analysis.unverified import Instrumented, composition_parts
from typing_literalstring.analysis.wrapper_calls import FAMILIES, Wrapper, Wrappers, is_defined_by
from typing_literalstring.specs.argv_shell import ShellInArgv
from typing_literalstring.specs.sinks import (
    LOGGING,
    LOGGING_MESSAGE,
    SHELL,
    SHELL_ARGV,
    SINK_NAMES,
    Rule,
    callee_name,
    has_format_arguments,
    log_message,
    only_unpacked_arguments,
    sink_names,
)

# The standard library's shell functions (every shell sink but paramiko's exec_command, a
# method of an object the checker may not type): tightened by our stubs whatever the receiver,
# so their callee needs no reveal (subprocess.run's overloads alone are kilobytes of text).
_STDLIB_SHELL = frozenset(
    name for name, (rule, api) in SINK_NAMES.items() if rule is SHELL and "paramiko" not in api
)

_DISPLAYS = (ast.List, ast.Tuple, ast.Set)
_Def = Union[ast.FunctionDef, ast.AsyncFunctionDef]

# The template sinks called on an environment, which may be one of Jinja2's sandboxes: the
# standard fix for template injection, which inherits our tightened Environment.from_string.
COMPILED_ON_AN_ENVIRONMENT = frozenset(("from_string",))


@dataclass(frozen=True)
class Look:
    """A sink-looking call, the text it passes and what the run is asked about it."""

    call: ast.Call
    rule: Rule  # the sink family's rule
    api: str
    argument: ast.expr  # the text argument
    parts: tuple[ast.expr, ...]  # what the text is composed of, through names assigned in view
    built: bool  # composed in view: an f-string, `%`, `format`, `+` or `join`
    literal_text: str  # the literal pieces of the composition, for the family's own words
    callee: ast.expr | None  # revealed: a method, or a name whose sink the checker may not see
    # The expression statement the call is (``cur.execute(q)``, ``await cur.execute(q)``): the
    # reveals follow it, as statements of their own on its last line, for a call used as a
    # value makes mypy say a None-returning method "does not return a value".
    statement: ast.Expr | None = None
    revealable: bool = True  # not inside an f-string
    wrapper: Wrapper | None = None  # the project's own function it calls (``wrappers``)
    # Revealed too: the object a template is compiled on, which may be a sandbox.
    receiver: ast.expr | None = None
    # Named by a common word that is a sink only in its package (asyncpg's `fetch`,
    # `sinks.SINK_NAMES_IF_IMPORTED`): a sink call only where the callee is revealed to take
    # a LiteralString, never judged by its name (a DB-API `cursor.fetchmany(count)`).
    weak: bool = False
    # Reached through an import of another package than the project's or a sink's
    # (``callee_kinds.Foreign``: tblib's ``Traceback.from_string``), or through a name the
    # module assigns a sink to (``sink_aliases``: "safer_popen = Popen"): a sink only where
    # the checker reveals a LiteralString parameter, never a finding by its name.
    foreign: str = ""
    # Asked where it stands, not after the call: a shell script in an argument list, which
    # may be added to the list lines before the call that starts the shell.
    wrap: ast.expr | None = None
    # Asked where no name may be bound with `:=` (a comprehension in a class body).
    bind: bool = True
    # A class sink's constructors (`Markup.__new__`, `Template.__init__`), asked about too: a
    # class's own type says nothing of what its constructor takes.
    constructors: tuple[ast.expr, ...] = ()
    # The object a method is called on, asked about where its name fits several sinks
    # ("psycopg2 cursor.execute or PyMySQL Cursor.execute"): its class names the one.
    owner: ast.expr | None = None
    # The text is unpacked from `*args` or `**kwargs` (``argument`` is that node): out of view.
    hidden: bool = False
    # A wrapper call's: every wrapper (a sink of the function) its argument reaches.
    reaches: tuple[Wrapper, ...] = ()
    # A shell function's call given no `shell=` but a `**mapping` that may hold it (that node,
    # ``sink_texts.shell_mapping``): a shell call only if the mapping turns the shell on, so
    # an Any command is unverified, never a finding (``mapped_shells``); and unless the
    # function shows it giving the mapping a "shell" key (``shell_shown``:
    # ``sink_texts.shell_in_view``), so is any command but a literal one.
    mapping: ast.expr | None = None
    shell_shown: bool = False

    @property
    def texts(self) -> list[ast.expr]:
        """What the judge is asked about: the text, or each item of a list, tuple or set
        display given to a wrapper (`create_index(["name", column])`), literals left out."""
        if self.hidden:
            return []
        argument = self.argument
        items = argument.elts if isinstance(argument, _DISPLAYS) else [argument]
        return [i for i in items if not isinstance(i, (ast.Constant, ast.Starred))]


def looks(
    tree: ast.Module,
    calls: Iterable[ast.Call],
    instrumented: Instrumented,
    wrappers: Wrappers | None = None,
    own: Callees | None = None,
    profile: str = "default",
    shells: Sequence[ShellInArgv] = (),
    path: str = "",
) -> list[Look]:
    """The sink calls among ``calls``, the calls of the project's own ``wrappers`` of them,
    and the shells started through argument lists (``shells``), with what to ask.  ``own``:
    what the calls name in the project (``project_defs``): a call of the project's own function
    named like a sink is judged as a call of a wrapper when that function is one, else not at
    all.  ``profile``: the strict one asks for every log message, the default one only for a
    message followed by formatting arguments."""
    found: list[Look] = []
    decorators = {
        id(d)
        for node in all_nodes(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        for d in node.decorator_list
    }
    statements = {
        id(node.value.value if isinstance(node.value, ast.Await) else node.value): node
        for node in all_nodes(tree)
        if isinstance(node, ast.Expr)
    }
    # Inside an f-string before Python 3.12, a reveal's quotes may end the string.
    in_fstrings = {
        id(inner)
        for node in all_nodes(tree)
        if isinstance(node, ast.JoinedStr)
        for inner in ast.walk(node)
    }
    unbound, enclosing = _places(tree)
    unbound |= _reassigning(tree)
    imported = imported_packages(tree)
    names = sink_names(imported)
    aliases = imported_names(tree, None)  # `Template as DjangoTemplate`: its own name counts
    assigned = assigned_sinks(tree, names, aliases)  # `safer_popen = Popen`: asked
    subprocess_named = subprocess_callees(tree)
    for call in calls:
        if id(call) in decorators:
            continue  # before Python 3.9 a decorator cannot be wrapped in the probes
        name = callee_name(call.func)
        alias: Assigned | None = None
        if name not in names and isinstance(call.func, ast.Name) and call.func.id in aliases:
            name = aliases[call.func.id].rsplit(".", 1)[-1]
        elif name not in names and isinstance(call.func, ast.Name) and call.func.id in assigned:
            alias = assigned[call.func.id]
            name = alias.sink
        candidates = (wrappers or {}).get(name or "", ())
        family = names[name][0] if name in names else None
        sink = family in FAMILIES or family is LOGGING
        # An assigned sink's name is the module's own: the checker's answer says what it is.
        asks_own = (sink or candidates) and alias is None
        resolved = own.of(call) if own is not None and asks_own else None
        if isinstance(resolved, Own):
            candidates = [w for w in candidates if is_defined_by(w, resolved)]
        elif isinstance(resolved, Foreign) and not sink:
            candidates = []  # another package's function of a wrapper's name
        # A wrapper's call of itself is no caller: its text comes from its own parameter.
        inside = enclosing.get(id(call))
        candidates = [
            w
            for w in candidates
            if not (w.path == path and inside is not None and w.line == inside.lineno)
        ]
        statement = statements.get(id(call))
        revealable, bind = id(call) not in in_fstrings, id(call) not in unbound
        if not sink or isinstance(resolved, Own):
            look = _wrapper_look(call, candidates, instrumented, inside)
            if look is not None:
                found.append(replace(look, statement=statement, revealable=revealable, bind=bind))
            continue
        if name == "extra":
            continue  # Django's extra takes its SQL by keyword, in lists
        assert name is not None
        rule, api = names[name]
        api = own_sinks.named_by_imports(name, api, imported)
        qualified = aliases.get(call.func.id, "") if isinstance(call.func, ast.Name) else ""
        api = own_sinks.named_by_specification(name, api, imported, qualified)
        mapping: ast.expr | None = None
        if rule is LOGGING:
            argument = log_message(call, name)
            if not has_format_arguments(call, name):
                if profile != "strict":
                    continue  # the standard logging module does not format such a message
                rule = LOGGING_MESSAGE
            elif only_unpacked_arguments(call) is not None:
                # `*args` may be empty, so the overload that takes any str would match: the
                # judge, not that overload, says what the message is.
                api += ", formatting arguments passed as *args"
        else:
            mapping = shell_mapping(call, inside, subprocess_named)
            argument = text_argument(call, name, mapping)
        if argument is None:
            hidden = unpacked_text(call, name, inside)
            if hidden is not None:
                # The text is in `*args` or `**kwargs` (`Popen(**options)`): out of view, a
                # sink call all the same, counted unverified.
                found.append(
                    Look(
                        call,
                        rule,
                        api,
                        hidden,
                        (),
                        False,
                        "",
                        None,
                        statement=statement,
                        revealable=False,
                        bind=bind,
                        hidden=True,
                    )
                )
            continue  # nothing to judge here
        weak = name not in SINK_NAMES
        if _literal_constant(argument) and not weak and alias is None:
            # A literal in view: proven whatever the callee, nothing to ask.
            found.append(Look(call, rule, api, argument, (), False, "", None))
            continue
        parts = [
            inner
            for part in composition_parts(argument)
            for inner in instrumented.through_names(part)
        ]
        built = composed_in_view(argument, instrumented)
        known_callee = alias is None and (
            (rule is SHELL and name in _STDLIB_SHELL)
            or (rule in (LOGGING, LOGGING_MESSAGE) and _logging_module(call.func, tree))
        )
        constructors = tuple(
            _attribute_of(call.func, method) for method in _CONSTRUCTORS.get(name, ())
        )
        found.append(
            Look(
                call,
                rule,
                api,
                argument,
                tuple(parts),
                built is not None,
                literal_pieces(built),
                None if known_callee else call.func,
                receiver=(
                    call.func.value
                    if name in COMPILED_ON_AN_ENVIRONMENT and isinstance(call.func, ast.Attribute)
                    else None
                ),
                weak=weak,
                foreign=(
                    alias.written
                    if alias is not None and not alias.certain
                    else resolved.package
                    if isinstance(resolved, Foreign)
                    else ""
                ),
                statement=statement,
                revealable=revealable,
                bind=bind,
                constructors=() if known_callee else constructors,
                owner=(
                    call.func.value
                    if " or " in api and isinstance(call.func, ast.Attribute)
                    else None
                ),
                mapping=mapping,
                shell_shown=mapping is not None and shell_in_view(mapping, inside),
            )
        )
    found += [_argv_look(shell, instrumented, unbound) for shell in shells]
    return found


# The sinks that are classes, and the constructor methods our specifications tighten.
_CONSTRUCTORS: dict[str, tuple[str, ...]] = {}
for _tightened in own_sinks.tightened_parameters():
    if _tightened.owner and _tightened.function in ("__init__", "__new__"):
        _known = _CONSTRUCTORS.get(_tightened.owner, ())
        if _tightened.function not in _known:
            _CONSTRUCTORS[_tightened.owner] = (*_known, _tightened.function)


def _attribute_of(func: ast.expr, name: str) -> ast.expr:
    """``func.name`` as a node of its own, placed where ``func`` is (only asked about)."""
    node = ast.Attribute(value=func, attr=name, ctx=ast.Load())
    return ast.copy_location(node, func)


def _places(tree: ast.Module) -> tuple[set[int], dict[int, _Def]]:
    """In one walk: id() of every node whose nearest enclosing function, lambda or class is a
    class (no name may be bound there with `:=` inside a comprehension; pyright refuses it in
    the class body itself too), and id() of each call -> the innermost function that holds
    it."""
    class_level: set[int] = set()
    enclosing: dict[int, _Def] = {}
    pending: list[tuple[ast.AST, bool, _Def | None]] = [(tree, False, None)]
    while pending:
        node, in_class, function = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call) and function is not None:
                enclosing[id(child)] = function
            if isinstance(child, ast.ClassDef):
                pending.append((child, True, function))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                pending.append((child, False, child))
            elif isinstance(child, ast.Lambda):
                pending.append((child, False, function))
            else:
                if in_class:
                    class_level.add(id(child))
                pending.append((child, in_class, function))
    return class_level, enclosing


def _reassigning(tree: ast.Module) -> set[int]:
    """id() of each call in the value of an assignment to a name the call reads (`rv =
    Markup(rv)`): a name bound there with `:=` is never revealed by pyright 1.1.414 when the
    assigned name has no declared type (its type is being inferred from that very value), so
    such a call is asked about without binding one."""
    found: set[int] = set()
    for statement in all_statements(tree):
        if isinstance(statement, ast.Assign):
            targets = [n for t in statement.targets for n in ast.walk(t)]
        elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)) and statement.value:
            targets = list(ast.walk(statement.target))
        else:
            continue
        assigned = {n.id for n in targets if isinstance(n, ast.Name)}
        if not assigned or statement.value is None:
            continue
        for call in ast.walk(statement.value):
            if isinstance(call, ast.Call) and any(
                isinstance(n, ast.Name) and n.id in assigned for n in ast.walk(call)
            ):
                found.add(id(call))
    return found


def _literal_constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))


def _logging_module(func: ast.expr, tree: ast.Module) -> bool:
    """``logging.info`` where ``logging`` is the standard module, imported as such."""
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "logging"
        and any(
            isinstance(node, ast.Import)
            and any(a.name == "logging" and a.asname is None for a in node.names)
            for node in all_nodes(tree)
        )
    )


def _argv_look(shell: ShellInArgv, instrumented: Instrumented, unbound: set[int]) -> Look:
    """A shell started through an argument list: its script is asked about where it stands."""
    script = shell.script
    parts = [
        inner for part in composition_parts(script) for inner in instrumented.through_names(part)
    ]
    built = composed_in_view(script, instrumented)
    call = shell.call
    inside = call.lineno <= script.lineno <= (call.end_lineno or call.lineno)
    return Look(
        call,
        SHELL_ARGV,
        "a shell started through an argument list"
        + ("" if inside else f" (its script is added on line {script.lineno})"),
        script,
        tuple(parts),
        built is not None,
        literal_pieces(built),
        None,
        wrap=script,
        bind=id(shell.call) not in unbound,
    )


def _wrapper_look(
    call: ast.Call, wrappers: Sequence[Wrapper], instrumented: Instrumented, inside: _Def | None
) -> Look | None:
    """A call of one of the project's own sink wrappers, with the argument it passes to the
    parameter that reaches the sink; its callee is revealed, to tell the wrapper from another
    function of its name."""
    # Through an attribute, a method of that name before a module's function; of one
    # function's parameters that reach a sink, the first given a value that is no literal.
    method_call = isinstance(call.func, ast.Attribute)
    given = [
        (wrapper, argument)
        for wrapper in sorted(wrappers, key=lambda w: w.method != method_call)
        if method_call or not wrapper.method
        for argument in [wrapper.argument(call)]
        if argument is not None and wrapper.shell_given(call, inside)
    ]
    if not given:
        return None
    wrapper, argument = next(
        ((w, a) for w, a in given if not isinstance(a, ast.Constant)), given[0]
    )
    # Every sink this argument reaches through the function (`archive_home(name)` runs a
    # shell twice): the call's outcome carries those flows.
    reaches = tuple(w for w, a in given if a is argument)
    # A list, tuple or set display is judged by its items (`create_index(["name"])` is
    # list[str] to the checker, though each item is a literal).
    items = argument.elts if isinstance(argument, (ast.List, ast.Tuple, ast.Set)) else [argument]
    if all(isinstance(i, ast.Constant) for i in items):
        return Look(
            call,
            wrapper.rule,
            wrapper.sink,
            argument,
            (),
            False,
            "",
            None,
            wrapper=wrapper,
            reaches=reaches,
        )
    parts = [
        inner
        for item in items
        for part in composition_parts(item)
        for inner in instrumented.through_names(part)
    ]
    built = composed_in_view(argument, instrumented)
    return Look(
        call,
        wrapper.rule,
        wrapper.sink,
        argument,
        tuple(parts),
        built is not None,
        literal_pieces(built),
        call.func,
        wrapper=wrapper,
        reaches=reaches,
    )


__all__ = ["COMPILED_ON_AN_ENVIRONMENT", "Look", "looks"]
