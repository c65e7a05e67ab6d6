"""What the one tightened run is asked about each sink call.

Each SQL, shell, template, markup and logging call of a probed file (``probes``), each call of
the project's own wrappers of one (``wrappers``), and each shell started through an argument
list (``specs.argv_shell``) is a ``Look``: its text argument, the parts that text is composed of
(``unverified.composition_parts``, through the names assigned in view) and, for a method or a
name whose sink the checker may not see, its callee.  ``probe_insertions`` asks the checker about
them in the copy (``Checker.ask``: the text is also given to the judge, whose answer is the
verdict, ``checkers/asking.py``), next to the call: ``cur.execute(q)`` as a statement is
followed, on its last line, by ``; <asks>``, a call used as a value ``c(...)`` becomes
``(c(...), <asks>)[0]``, and a shell script in an argument list ``s`` becomes ``(s, <asks>)[0]``
where it stands.  Each keeps the call, its type, its scope and its line.  ``verdicts`` reads
the answers.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Sequence

from typing_literalstring.analysis import own_sinks
from typing_literalstring.analysis.callees import imported_names
from typing_literalstring.analysis.project_defs import Callees, Foreign, Own
from typing_literalstring.analysis.statements import all_nodes, all_statements, imported_packages
from typing_literalstring.analysis.unverified import (
    Instrumented,
    binding_of,
    composition_parts,
    origin_nodes,
    same_expression,
)
from typing_literalstring.analysis.wrappers import (
    FAMILIES,
    TEXT_KEYWORDS,
    Wrapper,
    Wrappers,
    is_defined_by,
)
from typing_literalstring.checkers import Checker
from typing_literalstring.checkers.asking import Probe
from typing_literalstring.core.source_edits import byte_offsets, segment
from typing_literalstring.specs.argv_shell import ShellInArgv
from typing_literalstring.specs.sinks import (
    LOGGING,
    LOGGING_MESSAGE,
    SHELL,
    SHELL_ARGV,
    SINK_NAMES,
    SUBPROCESS_FUNCTIONS,
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
# Functions given their command with `shell=`: the others take it as their first argument.
_SHELL_KEYWORD_FUNCTIONS = frozenset(SUBPROCESS_FUNCTIONS)

_DISPLAYS = (ast.List, ast.Tuple, ast.Set)

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
    # (``project_defs.Foreign``: tblib's ``Traceback.from_string``): a sink only where the
    # checker reveals a LiteralString parameter, never a finding by its name.
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

    @property
    def texts(self) -> list[ast.expr]:
        """What the judge is asked about: the text, or each item of a list, tuple or set
        display given to a wrapper (`create_index(["name", column])`), literals left out."""
        if self.hidden:
            return []
        argument = self.argument
        items = argument.elts if isinstance(argument, _DISPLAYS) else [argument]
        return [i for i in items if not isinstance(i, (ast.Constant, ast.Starred))]


def text_argument(call: ast.Call, name: str) -> ast.expr | None:
    """The argument that carries the SQL, the command, the template or the markup."""
    if name in _SHELL_KEYWORD_FUNCTIONS:
        shell = next((k.value for k in call.keywords if k.arg == "shell"), None)
        if shell is None or (isinstance(shell, ast.Constant) and shell.value is False):
            return None  # an argument list without a shell: argv_shell's business
    first = call.args[0] if call.args else None
    if first is not None:
        return None if isinstance(first, ast.Starred) else first
    for keyword in TEXT_KEYWORDS:
        found = next((k.value for k in call.keywords if k.arg == keyword), None)
        if found is not None:
            return found
    return None


def is_composition(expr: ast.expr) -> bool:
    """Whether ``expr`` builds a string from parts in view."""
    if isinstance(expr, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in expr.values)
    if isinstance(expr, ast.BinOp):
        return isinstance(expr.op, (ast.Add, ast.Mod))
    if isinstance(expr, ast.IfExp):  # `cur if cur else None` is no composition
        return is_composition(expr.body) or is_composition(expr.orelse)
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in ("format", "join")
    )


def _built(argument: ast.expr, instrumented: Instrumented, depth: int = 0) -> ast.expr | None:
    """The composition the argument is, or the one last assigned in view to its name."""
    if is_composition(argument):
        return argument
    if isinstance(argument, ast.Name) and depth < 3:
        binding = binding_of(argument, instrumented.scopes.get(id(argument), []))
        if binding is not None and binding.kind == "assigned" and binding.value is not None:
            return _built(binding.value, instrumented, depth + 1)
    return None


def _literal_text(expr: ast.expr | None) -> str:
    if expr is None:
        return ""
    return " ".join(
        node.value
        for node in ast.walk(expr)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


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
    for call in calls:
        if id(call) in decorators:
            continue  # before Python 3.9 a decorator cannot be wrapped in the probes
        name = callee_name(call.func)
        if name not in names and isinstance(call.func, ast.Name) and call.func.id in aliases:
            name = aliases[call.func.id].rsplit(".", 1)[-1]
        candidates = (wrappers or {}).get(name or "", ())
        family = names[name][0] if name in names else None
        sink = family in FAMILIES or family is LOGGING
        resolved = own.of(call) if own is not None and (sink or candidates) else None
        if isinstance(resolved, Own):
            candidates = [w for w in candidates if is_defined_by(w, resolved)]
        elif isinstance(resolved, Foreign) and not sink:
            candidates = []  # another package's function of a wrapper's name
        # A wrapper's call of itself is no caller: its text comes from its own parameter.
        inside = enclosing.get(id(call))
        candidates = [
            w
            for w in candidates
            if not (w.path == path and inside is not None and w.line == inside)
        ]
        statement = statements.get(id(call))
        revealable, bind = id(call) not in in_fstrings, id(call) not in unbound
        if not sink or isinstance(resolved, Own):
            look = _wrapper_look(call, candidates, instrumented)
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
            argument = text_argument(call, name)
        if argument is None:
            hidden = _unpacked_text(call, name)
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
        if _literal_constant(argument) and not weak:
            # A literal in view: proven whatever the callee, nothing to ask.
            found.append(Look(call, rule, api, argument, (), False, "", None))
            continue
        parts = [
            inner
            for part in composition_parts(argument)
            for inner in instrumented.through_names(part)
        ]
        built = _built(argument, instrumented)
        known_callee = (rule is SHELL and name in _STDLIB_SHELL) or (
            rule in (LOGGING, LOGGING_MESSAGE) and _logging_module(call.func, tree)
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
                _literal_text(built),
                None if known_callee else call.func,
                receiver=(
                    call.func.value
                    if name in COMPILED_ON_AN_ENVIRONMENT and isinstance(call.func, ast.Attribute)
                    else None
                ),
                weak=weak,
                foreign=resolved.package if isinstance(resolved, Foreign) else "",
                statement=statement,
                revealable=revealable,
                bind=bind,
                constructors=() if known_callee else constructors,
                owner=(
                    call.func.value
                    if " or " in api and isinstance(call.func, ast.Attribute)
                    else None
                ),
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


def _unpacked_text(call: ast.Call, name: str) -> ast.expr | None:
    """The `*args` or `**kwargs` a sink call's text may come in, where no text is in view:
    `Popen(*args, **kwargs)`, `cur.execute(*query)`; None when the call shows it passes none
    (a shell function given `shell=False`, or no `**` to hold a shell)."""
    if name in _SHELL_KEYWORD_FUNCTIONS:
        shell = next((k.value for k in call.keywords if k.arg == "shell"), None)
        if isinstance(shell, ast.Constant) and shell.value is False:
            return None
        unpacked = next((k.value for k in call.keywords if k.arg is None), None)
        if shell is None and unpacked is None:
            return None  # no shell: an argument list's business
        if call.args and not isinstance(call.args[0], ast.Starred):
            return None  # the command is in view; the shell may be in **kwargs
    starred = call.args[0] if call.args and isinstance(call.args[0], ast.Starred) else None
    if starred is not None:
        return starred
    if not call.args and not any(k.arg in TEXT_KEYWORDS for k in call.keywords):
        return next((k.value for k in call.keywords if k.arg is None), None)
    return None


def _places(tree: ast.Module) -> tuple[set[int], dict[int, int]]:
    """In one walk: id() of every node whose nearest enclosing function, lambda or class is a
    class (no name may be bound there with `:=` inside a comprehension; pyright refuses it in
    the class body itself too), and id() of each call -> the line of the innermost function
    that holds it."""
    class_level: set[int] = set()
    enclosing: dict[int, int] = {}
    pending: list[tuple[ast.AST, bool, int | None]] = [(tree, False, None)]
    while pending:
        node, in_class, function = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call) and function is not None:
                enclosing[id(child)] = function
            if isinstance(child, ast.ClassDef):
                pending.append((child, True, function))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                pending.append((child, False, child.lineno))
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
    built = _built(script, instrumented)
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
        _literal_text(built),
        None,
        wrap=script,
        bind=id(shell.call) not in unbound,
    )


def _wrapper_look(
    call: ast.Call, wrappers: Sequence[Wrapper], instrumented: Instrumented
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
        if argument is not None and wrapper.shell_given(call)
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
    built = _built(argument, instrumented)
    return Look(
        call,
        wrapper.rule,
        wrapper.sink,
        argument,
        tuple(parts),
        built is not None,
        _literal_text(built),
        call.func,
        wrapper=wrapper,
        reaches=reaches,
    )


def probe_insertions(
    source: str,
    found: Sequence[Look],
    instrumented: Instrumented,
    checker: Checker,
    probe: Probe,
) -> tuple[list[tuple[int, bytes]], list[tuple[int, bytes]]]:
    """The insertions that put each look's questions next to it (see the module's docstring):
    those that open, outer ones first, and those that close, inner ones first.  The text is
    asked about and judged; its parts, where their types come from, the callee and the
    receiver are asked about.  A node that spans lines or is misplaced (f-strings before
    Python 3.12) is not asked about; the import of the probe is the caller's business."""
    data, offsets = source.encode("utf-8"), byte_offsets(source)
    opens: list[tuple[int, int, bytes]] = []
    closes: list[tuple[int, int, bytes]] = []
    for look in found:
        if not look.revealable:
            continue
        texts = look.texts
        nodes = [
            *texts,
            *look.parts,
            *(n for p in look.parts for n in origin_nodes(p, instrumented)),
        ]
        if look.callee is not None:
            nodes.append(look.callee)
        nodes += look.constructors
        for extra in (look.receiver, look.owner):
            if extra is not None:
                nodes.append(extra)
        asks: list[str] = []
        for node in {id(n): n for n in nodes}.values():
            text = _one_line(data, offsets, node)
            if text is not None:
                tag = instrumented.tag(node)
                judge = any(node is t for t in texts)
                asks += checker.ask(probe, text, tag, judge=judge, bind=look.bind)
        if not asks:
            continue
        around = look.wrap or look.call
        assert around.end_lineno is not None
        assert around.end_col_offset is not None
        start = offsets[around.lineno - 1] + around.col_offset
        end = offsets[around.end_lineno - 1] + around.end_col_offset
        # The asks come after the call: mypy keeps only the first of two equal messages on a
        # line, and the original's must be the one kept.
        if look.wrap is None and look.statement is not None:
            statement = look.statement
            assert statement.end_lineno is not None
            assert statement.end_col_offset is not None
            at = offsets[statement.end_lineno - 1] + statement.end_col_offset
            closes.append((at, len(data), "".join(f"; {a}" for a in asks).encode()))
            continue
        opens.append((start, start - end, b"("))
        closes.append((end, end - start, f", {', '.join(asks)})[0]".encode()))
    return [(o, t) for o, _, t in sorted(opens)], [(o, t) for o, _, t in sorted(closes)]


def _one_line(data: bytes, offsets: Sequence[int], node: ast.expr) -> str | None:
    """The node's text on one line, parenthesized (`yield x` or a generator without its own
    parentheses stays one item), so that no line moves; None when a reveal cannot copy it."""
    unparse: Callable[[ast.AST], str] | None = getattr(ast, "unparse", None)
    if unparse is not None:  # Python 3.9+: the tree's own text, whatever its lines
        return f"({unparse(node)})"
    if node.lineno != node.end_lineno or not same_expression(data, offsets, node):
        return None  # Python 3.8 misplaces the nodes inside an f-string
    return f"({segment(data, offsets, node)})"


__all__ = [
    "COMPILED_ON_AN_ENVIRONMENT",
    "Look",
    "is_composition",
    "looks",
    "probe_insertions",
    "text_argument",
]
