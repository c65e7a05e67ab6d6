"""What a finding's code says, read from the project's source with ``ast`` alone (nothing of the
project is imported or run): the statement, the function it is in, the non-literal parts of the
text that reaches the sink, and for a log call its formatting arguments and where its logger
comes from.  scripts/impact.py publishes these facts with each finding
(benchmarks/impact/results/), and a labelling rule checks its claim against them finding by
finding (impact_rules.py), so that a rule never labels a finding it was not checked on.

The text's parts follow the function's own assignments, the module's constants, the names it
imports from the project and ``self.<attribute>`` assignments anywhere in the project, without
regard to their order: a part any assignment gives is a part.  What cannot be followed (a
parameter, a call, an attribute of something else) is a part, written as its source text; a
parameter as ``param <name>``.  No part at all means the text is literal in fact.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence

from scripts.impact_logging import LogOrigins
from scripts.impact_model import Found
from scripts.impact_source import Binding, Module, Project, resolve
from typing_literalstring.specs.sinks import LOGGING, LOGGING_MESSAGE, has_format_arguments

if TYPE_CHECKING:
    from typing import Callable

    _Again = Callable[[ast.expr], "set[str]"]

MAX_STATEMENT_LINES = 30  # a longer statement is cut (its first lines say what it is)
MAX_PART = 120  # characters of one part's source text
MAX_DEPTH = 12  # names followed through names
# str methods whose result is literal when their receiver and arguments are (PEP 675 Appendix C),
# and encode/decode, whose result is fixed by a literal as well (bytes are no LiteralString).
LITERAL_METHODS = frozenset(
    [
        "capitalize",
        "casefold",
        "center",
        "decode",
        "encode",
        "expandtabs",
        "format",
        "join",
        "ljust",
        "lower",
        "lstrip",
        "partition",
        "removeprefix",
        "removesuffix",
        "replace",
        "rjust",
        "rpartition",
        "rsplit",
        "rstrip",
        "split",
        "splitlines",
        "strip",
        "swapcase",
        "title",
        "upper",
        "zfill",
    ]
)
# Functions whose result is literal when their one argument is.
LITERAL_FUNCTIONS = frozenset({"dedent", "str"})
# Where the text of a sink call is when it is passed by keyword.
TEXT_KEYWORDS = ("sql", "query", "statement", "source", "cmd", "command", "args", "msg", "s",
                 "text", "format_string", "value", "base", "object")  # fmt: skip
LOG_RULES = (LOGGING.id, LOGGING_MESSAGE.id)  # LS301, LS302


def is_log_finding(found: Found) -> bool:
    """A finding at a logging call: LS301 or LS302, or an LS9xx (the text is unverified)
    whose API is a logging method's (``logging debug (Logger, LoggerAdapter or module)``,
    ``logging.Logger.debug``)."""
    return found.rule in LOG_RULES or (
        found.rule.startswith("LS9") and found.api.startswith("logging")
    )


def strict_only(found: Found, facts: Mapping[str, object]) -> bool:
    """Whether the finding is the strict profile's alone: an LS302, or an LS9xx finding at a
    logging call with no formatting argument after its message (its facts' ``log_arguments``
    is 0, by the tool's own test, ``has_format_arguments``).  The default profile asks
    nothing of a log message without arguments (its call is no sink there), so a finding
    there, whatever the checker made of the message, is one the strict profile alone has."""
    if found.rule == LOGGING_MESSAGE.id:
        return True
    return found.rule.startswith("LS9") and is_log_finding(found) and (
        facts.get("log_arguments") == 0)  # fmt: skip


class Parts:
    """The non-literal parts of a string expression (the module docstring says how)."""

    def __init__(self, project: Project) -> None:
        self.project = project

    def of(self, module: Module, node: ast.expr) -> set[str]:
        return self._parts(module, node, {}, 0, frozenset())

    def _parts(
        self,
        module: Module,
        node: ast.expr,
        bound: dict[str, ast.expr],  # comprehension variables -> their iterable
        depth: int,
        seen: frozenset[tuple[str, int]],
    ) -> set[str]:
        def again(inner: ast.expr, more: dict[str, ast.expr] | None = None) -> set[str]:
            return self._parts(module, inner, more or bound, depth + 1, seen)

        if depth > MAX_DEPTH:
            return {_cut(module.text(node))}
        if isinstance(node, ast.Constant):
            return set()
        if isinstance(node, ast.JoinedStr):
            return _union(again(v) for v in node.values)
        if isinstance(node, ast.FormattedValue):
            spec: set[str] = set()
            if node.format_spec is not None:
                spec = again(node.format_spec)
            return again(node.value) | spec
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return _union(again(e) for e in node.elts)
        if isinstance(node, ast.Starred):
            return again(node.value)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Mult) and (_is_str(node.left) or _is_str(node.right)):
                # "?" * n: a literal repeated (the count is no text)
                text = node.left if _is_str(node.left) else node.right
                return again(text)
            if isinstance(node.right, ast.Dict) and isinstance(node.op, ast.Mod):
                return again(node.left) | _union(again(v) for v in node.right.values)
            return again(node.left) | again(node.right)
        if isinstance(node, ast.IfExp):
            return again(node.body) | again(node.orelse)
        if isinstance(node, ast.BoolOp):
            return self._bool_parts(node, again)
        if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Dict, ast.Tuple,
                                                                       ast.List)):  # fmt: skip
            # {True: 'true', ...}[value]: one of the display's values
            values = node.value.values if isinstance(node.value, ast.Dict) else node.value.elts
            return _union(again(v) for v in values)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            more = dict(bound)
            for generator in node.generators:
                if isinstance(generator.target, ast.Name):
                    more[generator.target.id] = generator.iter
            return again(node.elt, more)
        if isinstance(node, ast.Call):
            return self._call_parts(module, node, again)
        if isinstance(node, ast.Name):
            return self._name_parts(module, node, bound, depth, seen)
        if isinstance(node, ast.Attribute):
            return self._attribute_parts(module, node, depth, seen)
        return {_cut(module.text(node))}

    @staticmethod
    def _bool_parts(node: ast.BoolOp, again: _Again) -> set[str]:
        """``a or b`` is a truthy ``a`` or ``b``; ``x and '1'`` is truthy only as ``'1'``: so
        ``state and '1' or '0'`` is always a literal."""
        if isinstance(node.op, ast.And):
            return _union(again(v) for v in node.values)
        found: set[str] = set()
        for value in node.values[:-1]:
            if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.And):
                value = value.values[-1]
            found |= again(value)
        return found | again(node.values[-1])

    def _call_parts(self, module: Module, node: ast.Call, again: _Again) -> set[str]:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in LITERAL_METHODS:
            receiver = again(func.value)
            if func.attr == "join" and node.args:
                return receiver | again(node.args[0])
            return (
                receiver
                | _union(again(a) for a in node.args)
                | _union(again(k.value) for k in node.keywords)
            )
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in LITERAL_FUNCTIONS and len(node.args) == 1 and not node.keywords:
            return again(node.args[0])
        return {_cut(module.text(node))}

    def _name_parts(
        self,
        module: Module,
        node: ast.Name,
        bound: dict[str, ast.expr],
        depth: int,
        seen: frozenset[tuple[str, int]],
    ) -> set[str]:
        if node.id in bound:
            iterable = bound[node.id]
            inner = self._parts(module, iterable, {}, depth + 1, seen)
            return inner if _is_display(iterable) else {node.id}
        scope, found = resolve(module, node, node.id)
        key = (module.file, id(scope) ^ hash(node.id))
        if key in seen:
            return set()  # a cycle: its other bindings give the parts
        seen = seen | {key}
        if not found:
            return {node.id}
        parts: set[str] = set()
        for binding in found:
            parts |= self._binding_parts(module, node.id, binding, depth, seen)
        return parts

    def _binding_parts(
        self, module: Module, name: str, binding: Binding, depth: int,
        seen: frozenset[tuple[str, int]],
    ) -> set[str]:  # fmt: skip
        value = binding.node
        if binding.kind in ("value", "augmented") and isinstance(value, ast.expr):
            return self._parts(module, value, {}, depth + 1, seen)
        if binding.kind == "loop" and isinstance(value, ast.expr) and _is_display(value):
            return self._parts(module, value, {}, depth + 1, seen)
        if binding.kind == "parameter":
            return {f"param {name}"}
        if binding.kind == "import" and isinstance(value, ast.ImportFrom):
            target = self.project.by_name.get(self.project.imported_module(module, value))
            if target is not None:
                _, found = resolve(target, target.tree, binding.alias)
                return _union(
                    self._binding_parts(target, binding.alias, b, depth + 1, seen) for b in found
                ) if found else {name}  # fmt: skip
        return {name}

    def _attribute_parts(
        self, module: Module, node: ast.Attribute, depth: int, seen: frozenset[tuple[str, int]]
    ) -> set[str]:
        """``self.x``: every value assigned to an attribute ``x`` in the project; ``mod.X``
        of a project module: that module's ``X``."""
        if isinstance(node.value, ast.Name):
            _, found = resolve(module, node, node.value.id)
            imported = [b for b in found if b.kind == "import" and isinstance(b.node, ast.Import)]
            if imported:
                target = self.project.by_name.get(imported[0].alias)
                if target is not None:
                    name = ast.Name(node.attr, ast.Load())
                    _, values = resolve(target, target.tree, node.attr)
                    return _union(
                        self._binding_parts(target, name.id, b, depth + 1, seen) for b in values
                    ) if values else {_cut(module.text(node))}  # fmt: skip
            if node.value.id in ("self", "cls") and not self.project.dynamic_attributes:
                key = ("attribute", hash(node.attr))
                assigned = self.project.attributes.get(node.attr, [])
                if assigned and key not in seen and all(v is not None for _, v in assigned):
                    return _union(
                        self._parts(m, v, {}, depth + 1, seen | {key})
                        for m, v in assigned
                        if v is not None
                    )
        return {_cut(module.text(node))}


def _union(sets: Iterator[set[str]] | Sequence[set[str]]) -> set[str]:
    out: set[str] = set()
    for one in sets:
        out |= one
    return out


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))


def _is_display(node: ast.expr) -> bool:
    """A list, tuple or set display of literals (or of tuples of literals)."""
    if not isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return False
    return all(isinstance(e, ast.Constant) or _is_display(e) for e in node.elts)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_PART else text[: MAX_PART - 3] + "..."


# -- one finding's facts ------------------------------------------------------------------------
class Reader:
    """The facts of one project's findings (``facts``), its source parsed once."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.parts = Parts(project)
        self.logging = LogOrigins(project)

    def facts(self, found: Found) -> dict[str, object]:
        """``statement`` (its code, as the file has it), ``scope`` (``Class.method``), and
        where the sink call is found: ``callee`` (as written), ``text`` (the non-literal parts
        of its text, sorted; of every argument when it is the project's own wrapper), and for
        a log call (an LS301, LS302 or LS9xx finding at one: ``is_log_finding``)
        ``log_arguments`` (how many formatting arguments follow the message; -1 for ``*args``)
        and ``logger`` (impact_logging.py)."""
        module = self.project.modules.get(found.file)
        if module is None:
            return {}
        span = module.statements.span(found.number)
        lines = module.source.splitlines()[span.first - 1 : span.last]
        out: dict[str, object] = {"statement": _statement(lines)}
        located = sink_call(module, span.first, span.last, found)
        call = located[0] if located else None
        out["scope"] = scope_name(module, call or _statement_node(module, found.number))
        if located is None:
            return out
        call, named = located
        out["callee"] = module.text(call.func)
        arguments = text_arguments(call, found, named)
        if arguments:
            out["text"] = sorted(_union(self.parts.of(module, a) for a in arguments))
        if is_log_finding(found):
            out["log_arguments"] = log_arguments(call)
            out["logger"] = self.logging.of(module, call)
        return out


def _statement(lines: Sequence[str]) -> str:
    indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    kept = [x[indent:].rstrip() for x in lines[:MAX_STATEMENT_LINES]]
    if len(lines) > MAX_STATEMENT_LINES:
        kept.append(f"... ({len(lines) - MAX_STATEMENT_LINES} more lines)")
    return "\n".join(kept)


def _statement_node(module: Module, line: int) -> ast.AST:
    nodes = module.nodes_in(line, line)
    return nodes[0] if nodes else module.tree


def callee_name(api: str) -> str:
    """The name the sink call (or the project's wrapper) is called by, from the finding's
    API: ``..., through run_sql`` -> ``run_sql``; ``logging.Logger.debug`` -> ``debug``."""
    through = re.search(r", through (\w+)", api)
    if through:
        return through[1]
    named = re.match(r"(\w+), named like", api)
    if named:
        return named[1]
    logging = re.match(r"logging (\w+) \(", api)
    if logging:
        return logging[1]
    first = api.split(" or ")[0]
    words = re.findall(r"\w+", first)
    return words[-1] if words else ""


def sink_call(module: Module, first: int, last: int, found: Found) -> tuple[ast.Call, bool] | None:
    """The call of the finding's sink (or wrapper) in its statement, and whether it was found
    by its name: by the name on the finding's line first, then anywhere in the statement;
    else a call on the finding's line whose name holds the sink's (a wrapper the API does not
    name); else None, and the finding has no ``text``."""
    name = callee_name(found.api)
    calls = [n for n in module.nodes_in(first, last) if isinstance(n, ast.Call)]
    named = [c for c in calls if _called_name(c) == name]
    chosen = [c for c in named if c.lineno == found.number] or named
    if chosen:
        return min(chosen, key=lambda c: (c.lineno, c.col_offset)), True
    # execute_sql for execute: a wrapper named after the sink.  Another call on the line may
    # be anything (`post.get("slug") or slugify(title)`): its arguments say nothing.
    alike = [c for c in calls if c.lineno == found.number and name and name in _called_name(c)]
    if alike:
        return min(alike, key=lambda c: (c.lineno, c.col_offset)), False
    return None


def _called_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def text_arguments(call: ast.Call, found: Found, named: bool = True) -> list[ast.expr]:
    """The argument that is the sink's text; every argument of a call of the project's own
    wrapper, or of a call the API does not name (which of its parameters reaches the sink is
    not known here)."""
    if ", through " in found.api or not named:
        return [*call.args, *(k.value for k in call.keywords)]
    for keyword in call.keywords:
        if keyword.arg in TEXT_KEYWORDS:
            return [keyword.value]
    position = 1 if _called_name(call) == "log" and is_log_finding(found) else 0
    return [call.args[position]] if len(call.args) > position else []


def log_arguments(call: ast.Call) -> int:
    """How many formatting arguments follow a log call's message (-1: a ``*args``, unknown):
    0 exactly when the tool finds none (``has_format_arguments``: its rule LS302 there)."""
    name = _called_name(call)
    if not has_format_arguments(call, name):
        return 0
    if any(isinstance(a, ast.Starred) for a in call.args):
        return -1
    return len(call.args[2 if name == "log" else 1 :])


def scope_name(module: Module, node: ast.AST) -> str:
    names = [
        s.name for s in module.scopes(node)
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]  # fmt: skip
    return ".".join(reversed(names))
