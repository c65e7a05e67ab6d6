"""A sink wrapper as its callers see it: which argument of a call reaches the sink, and whether
the call makes the sink a shell.

``wrappers`` finds the wrappers on the syntax trees; the modules that judge and report their
calls (``sink_looks``, ``sink_outcomes``, ``receivers``, ``check``, the server) need only what
is here, not how the wrappers were found.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from typing_literalstring.analysis.callee_kinds import Own
from typing_literalstring.specs.sinks import MARKUP, SHELL, SQL, TEMPLATE, Rule

# The sink families whose calls get an outcome (logging's are left to the checker).
FAMILIES = (SQL, SHELL, TEMPLATE, MARKUP)


# The names a sink's text is passed by, when it is passed by name.
TEXT_KEYWORDS = ("sql", "query", "operation", "statement", "source", "args", "cmd", "command")


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
            found = argument_at(call.args, self.position)
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
            found = argument_at(call.args, self.shell_position)
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
    (annotated or not) to dict displays (or ``dict(...)`` calls) of string keys other than
    ``keyword``, and otherwise only reads, unpacks or stores other constant keys in: a mapping
    of the function's own that cannot carry ``keyword``.  Anything else (a parameter, a module
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
        if isinstance(parent, ast.AnnAssign) and parent.target is use:
            # `options: Dict[str, Any] = {...}`, as typed code writes the mapping so that its
            # values may go to any keyword; a bare annotation binds nothing.
            if parent.value is None:
                return True
            value = parent.value
        elif isinstance(parent, ast.Assign) and parent.targets == [use]:
            value = parent.value
        else:
            return False
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


def argument_at(arguments: Sequence[ast.expr], position: int) -> ast.expr | tuple[str, int] | None:
    """The argument at ``position``; for one behind ``*name``, (name, its index in it)."""
    for index, argument in enumerate(arguments):
        if isinstance(argument, ast.Starred):
            if isinstance(argument.value, ast.Name):
                return (argument.value.id, position - index)
            return ("", position - index)
        if index == position:
            return argument
    return None


def is_defined_by(wrapper: Wrapper, resolved: Own) -> bool:
    """Whether the wrapper is the project's definition a call names, or overrides it in a
    direct subclass (a method called on ``self`` may be a subclass's)."""
    if resolved.holds(wrapper.path, wrapper.line):
        return True
    return bool(resolved.owner) and resolved.owner in wrapper.bases


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
