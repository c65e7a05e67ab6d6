"""``check --report-any``: values of type Any that reach a LiteralString unverified.

A value of type Any is assignable to LiteralString, and ``"SELECT '" + payload["name"] + "'"``
even keeps the LiteralString overload of ``+`` (PEP 675, Appendix B).  The checker stays the
judge, in two runs on copies of the files (inside a mirror of the project root, so that every
import resolves as in the original):

1. *reveal*: every part of every call argument (the argument itself, or each part of the string
   it composes: an f-string field, an operand of ``+`` or ``%``, a ``format`` or ``join``
   argument) is revealed, ``reveal_type((part, 7))[0]``; so are the places an Any may come from
   (the callee of a call, the object of a subscript or attribute, the value last assigned to a
   name).  The tag (``7``) names the part in every checker's message, whatever its column.
2. *substitute*: each part whose revealed type is Any or Unknown becomes ``str(part)``, plain
   ``str`` for every checker.  A call that the checker then refuses with an error about
   LiteralString (or, at one of our sinks, with "no overload matches"), and did not refuse
   before, takes the part where only a literal string may go: a finding of rule LS901.

Lines never move in either copy, so line numbers match the original's (``any_copies`` makes
them).  Where an Any comes from is read on the names' bindings in view (``scoped_bindings``).
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Protocol, Sequence

from typing_literalstring.analysis.scoped_bindings import Scope, binding_of, scopes_at
from typing_literalstring.analysis.statements import all_nodes
from typing_literalstring.checkers import type_text
from typing_literalstring.checkers.asking import Answer, Judgement, Probe, judgement
from typing_literalstring.core.source_edits import byte_offsets
from typing_literalstring.specs.sinks import callee_name

# ``tuple[Any, Literal[7]]`` (pyright, ty, pyrefly), ``tuple[Any, Literal[7]?]`` (mypy),
# ``builtins.tuple[Any, Literal[7]?]`` (zuban).
_REVEALED = re.compile(r"tuple\[(?P<type>.*), Literal\[(?P<tag>\d+)\]\??\]")
_STRING = re.compile(r"(?:str|LiteralString|Literal\[.*\]\??|None)$")
# A collection whose items are Any: `list[Any]`, `Generator[Unknown, None, None]`.
_ITEMS_ANY = re.compile(r"[\w.]+\[(?:str \| )?(?:Any|Unknown)(?: \| str)?[,\]]")
_JOINED_DISPLAYS = (ast.List, ast.Tuple, ast.Set)


def composition_parts(expr: ast.expr) -> Iterator[ast.expr]:
    """The parts a string argument is composed of; the argument itself when it is not a
    composition.  Literal constants are no part: they are literal."""
    if isinstance(expr, ast.Constant):
        return
    if isinstance(expr, ast.JoinedStr):
        for value in expr.values:
            if isinstance(value, ast.FormattedValue):
                yield from composition_parts(value.value)
                if value.format_spec is not None:
                    yield from composition_parts(value.format_spec)
        return
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        yield from composition_parts(expr.left)
        yield from composition_parts(expr.right)
        return
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
        yield from composition_parts(expr.left)
        right = expr.right
        if isinstance(right, ast.Tuple):
            for item in right.elts:
                yield from composition_parts(item)
        elif isinstance(right, ast.Dict):
            for value in right.values:
                yield from composition_parts(value)
        else:
            yield from composition_parts(right)
        return
    if isinstance(expr, ast.IfExp):
        yield from composition_parts(expr.body)
        yield from composition_parts(expr.orelse)
        return
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
        if expr.func.attr == "format":
            yield from composition_parts(expr.func.value)
            for argument in [*expr.args, *(k.value for k in expr.keywords)]:
                yield from composition_parts(argument)
            return
        if expr.func.attr == "join" and len(expr.args) == 1 and not expr.keywords:
            yield from composition_parts(expr.func.value)
            items = expr.args[0]
            if isinstance(items, _JOINED_DISPLAYS):
                for item in items.elts:
                    yield from composition_parts(item)
            elif not isinstance(items, ast.Starred):
                yield items  # judged by its items' type (`Instrumented.joined`)
            return
    if isinstance(expr, (ast.Starred, ast.NamedExpr, ast.Lambda)):
        return  # a walrus part is left alone: substituting it would retype its name
    yield expr


def call_parts(call: ast.Call) -> list[tuple[int, ast.expr]]:
    """The parts of a call's arguments, each with its argument's index (keywords after the
    positional ones); a list, tuple or set display is judged by its items
    (``foo(["sh", "-c", script])``: ``script``)."""
    out: list[tuple[int, ast.expr]] = []
    for index, argument in enumerate([*call.args, *(k.value for k in call.keywords)]):
        items = argument.elts if isinstance(argument, _JOINED_DISPLAYS) else [argument]
        for item in items:
            out.extend((index, part) for part in composition_parts(item))
    return out


def members(revealed: str) -> list[str]:
    """The members of a revealed union, split at the top level only, outside quoted literal
    strings (``type_text.split_top``); a text that is no well-formed type is one member."""
    try:
        return type_text.split_top(revealed, " | ")
    except type_text.Malformed:
        return [revealed]


def is_any(revealed: str, items: bool = False) -> bool:
    """Whether a revealed type is Any or Unknown, or a union with it (``str | Any``); with
    ``items`` (a ``join`` argument), also a collection of them (``list[Any]``)."""
    found = members(revealed.strip())
    unknown = [m for m in found if m in ("Any", "Unknown") or (items and _ITEMS_ANY.match(m))]
    # `TextIO | Any` is no string: made `str`, it would break the call for another reason.
    return bool(unknown) and all(m in unknown or _STRING.match(m) for m in found)


def revealed_types(messages: Sequence[str]) -> dict[int, str]:
    """Tag -> the revealed type of the part, from the reveal run's notes."""
    out: dict[int, str] = {}
    for message in messages:
        match = _REVEALED.search(message.replace("builtins.", ""))
        if match is not None:
            out[int(match["tag"])] = match["type"]
    return out


# -- where an Any comes from ---------------------------------------------------------------


def _text(source: bytes, offsets: Sequence[int], node: ast.AST, limit: int = 40) -> str:
    start = offsets[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
    end = offsets[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
    text = " ".join(source[start:end].decode("utf-8").split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Looked(Protocol):
    """What ``Instrumented`` asks of a sink_looks.Look."""

    @property
    def texts(self) -> list[ast.expr]: ...

    @property
    def parts(self) -> tuple[ast.expr, ...]: ...


@dataclass
class Instrumented:
    """One file's parts, the probes around them, and the types the checker revealed."""

    source: str
    tree: ast.Module
    # id(call) -> its parts, each with its argument's index; a name's parts include those of
    # the value last assigned to it (`q = "... " + payload["x"]; cur.execute(q)`).
    parts: dict[int, list[tuple[int, ast.expr]]]
    tags: dict[int, int] = field(default_factory=lambda: {})  # id(node) -> tag
    nodes: list[ast.expr] = field(default_factory=lambda: [])  # tag -> node
    types: dict[int, str] = field(default_factory=lambda: {})  # tag -> revealed type
    scopes: dict[int, list[Scope]] = field(default_factory=lambda: {})  # id(name) -> scopes
    imported: frozenset[str] = frozenset()  # the names import statements bind
    joined: frozenset[int] = frozenset()  # id() of each `sep.join(items)` argument
    # tag -> the judge's answer about a sink's text (checkers/asking.py); None: unreadable.
    judged: dict[int, Judgement | None] = field(default_factory=lambda: {})
    # The tags whose type was read from a message that may have misplaced it.
    inexact: set[int] = field(default_factory=lambda: set())

    # Kept from one check to the next (analysis/probe_cache.py) by pickling: the fields keyed
    # by id() of the tree's nodes travel keyed by the nodes, whose ids a load changes.
    def __getstate__(self) -> dict[str, object]:
        nodes = {id(n): n for n in ast.walk(self.tree)}
        state = dict(self.__dict__)
        for name in ("parts", "tags", "scopes"):
            keyed: dict[int, object] = getattr(self, name)
            state[name] = [(nodes[key], value) for key, value in keyed.items()]
        state["joined"] = [nodes[key] for key in self.joined]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name in ("parts", "tags", "scopes"):
            pairs: list[tuple[ast.AST, object]] = state[name]  # type: ignore[assignment]
            state[name] = {id(node): value for node, value in pairs}
        joined: list[ast.AST] = state["joined"]  # type: ignore[assignment]
        state["joined"] = frozenset(id(node) for node in joined)
        self.__dict__.update(state)

    def answered(
        self, types: Mapping[int, Answer], judged: Mapping[int, Answer], probe: Probe
    ) -> None:
        """Take the run's answers about this file's tagged nodes."""
        for tag, answer in types.items():
            self.types[tag] = answer.text
            if not answer.exact:
                self.inexact.add(tag)
        for tag, answer in judged.items():
            self.judged[tag] = judgement(answer, probe)
            if not answer.exact:
                self.inexact.add(tag)

    def judgement(self, node: ast.expr) -> Judgement | None:
        """The judge's answer about ``node``, if one was asked and given."""
        tag = self.tags.get(id(node))
        return None if tag is None else self.judged.get(tag)

    def revealed_literal(self, node: ast.expr) -> bool:
        """Whether the run revealed ``node`` as a literal string, read exactly."""
        tag = self.tags.get(id(node))
        if tag is None or tag in self.inexact or tag not in self.types:
            return False
        try:
            found = type_text.members(self.types[tag])
        except type_text.Malformed:
            return False
        return bool(found) and all(type_text.is_literal_string(m) for m in found)

    def asked(self, look: Looked) -> bool:
        """Whether every text of the look was asked about."""
        return all(id(t) in self.tags for t in look.texts)

    def exact(self, look: Looked) -> bool:
        """Whether every answer about the look's texts and parts was read exactly."""
        nodes = [*look.texts, *look.parts]
        return not any(self.tags.get(id(n)) in self.inexact for n in nodes)

    @functools.cached_property
    def encoded(self) -> tuple[bytes, list[int]]:
        """The source as UTF-8 and its lines' byte offsets (ast columns are byte offsets)."""
        return self.source.encode("utf-8"), byte_offsets(self.source)

    def unverified(self, part: ast.expr) -> bool:
        return is_any(self.type_of(part) or "", items=id(part) in self.joined)

    def tag(self, node: ast.expr) -> int:
        if id(node) not in self.tags:
            self.tags[id(node)] = len(self.nodes)
            self.nodes.append(node)
        return self.tags[id(node)]

    def type_of(self, node: ast.expr) -> str | None:
        tag = self.tags.get(id(node))
        return None if tag is None else self.types.get(tag)

    def any_parts(self) -> list[ast.expr]:
        """The parts revealed as Any, outermost only (a part inside another is substituted
        with it)."""
        found = {
            id(part): part
            for parts in self.parts.values()
            for _, part in parts
            if self.unverified(part)
        }
        inner: set[int] = set()
        for part in found.values():
            for child in ast.walk(part):
                if child is not part and id(child) in found:
                    inner.add(id(child))
        return [part for key, part in found.items() if key not in inner]

    def through_names(self, part: ast.expr) -> list[ast.expr]:
        """The part, and for a name the parts of the value last assigned to it."""
        return list(_through_names(part, self))

    def explain(self, parts: Sequence[ast.expr]) -> str:
        """What each part is, and where its Any comes from."""
        data, offsets = self.encoded
        return "; ".join(
            f"`{_text(data, offsets, p)}` is {self.type_of(p)}: {self.origin(p)}" for p in parts
        )

    def origin(self, node: ast.expr, depth: int = 0) -> str:
        """Where the Any of ``node`` comes from, as far as the revealed types tell."""
        data, offsets = self.encoded
        text = _text(data, offsets, node)
        revealed = self.type_of(node) or "Any"
        if depth > 4:
            return f"`{text}` is {revealed}"
        if isinstance(node, ast.Call):
            callee = _text(data, offsets, node.func)
            if _is_plain_any(self.type_of(node.func) or ""):
                return self.origin(node.func, depth + 1)
            return f"`{callee}` returns {revealed}"
        if isinstance(node, (ast.Subscript, ast.Attribute)):
            held = self.type_of(node.value)
            if held is not None and _is_plain_any(held):
                return self.origin(node.value, depth + 1)
            if held is not None:
                return f"`{_text(data, offsets, node.value)}` is {held}"
            return f"`{text}` is {revealed}"
        if isinstance(node, ast.Name):
            binding = binding_of(node, self.scopes.get(id(node), []))
            if binding is None:
                return f"`{text}` is {revealed}"
            if binding.kind == "parameter":
                if binding.annotation is None:
                    return f"parameter `{text}` has no annotation"
                return (
                    f"parameter `{text}` is annotated `{_text(data, offsets, binding.annotation)}`"
                )
            assert binding.value is not None
            if binding.kind == "iterated":
                return (
                    f"`{text}` iterates over `{_text(data, offsets, binding.value)}` "
                    f"(line {binding.line})"
                )
            if binding.annotation is not None:
                annotation = _text(data, offsets, binding.annotation)
                return f"`{text}` is declared `{annotation}` (line {binding.line})"
            value_type = self.type_of(binding.value)
            if value_type is not None and is_any(value_type):
                value = _text(data, offsets, binding.value)
                why = self.origin(binding.value, depth + 1)
                return f"`{text} = {value}` (line {binding.line}): {why}"
            return f"`{text}` is {revealed}"
        return f"`{text}` is {revealed}"


def _is_plain_any(revealed: str) -> bool:
    return revealed.strip() in ("Any", "Unknown")


def _rooted_at(node: ast.expr, names: frozenset[str]) -> bool:
    """Whether ``node`` is a name or dotted name starting with one of ``names``."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in names


def _chain(node: ast.expr, instrumented: Instrumented, depth: int = 0) -> Iterator[ast.expr]:
    """The nodes whose types tell where ``node``'s type comes from."""
    if depth > 4:
        return
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and hasattr(builtins, node.func.id):
            return  # `str(x)`, `dict(...)`: a builtin tells nothing and keeps its own type
        yield node.func
        yield from _chain(node.func, instrumented, depth + 1)
    elif isinstance(node, (ast.Subscript, ast.Attribute)):
        value = node.value
        if _rooted_at(value, instrumented.imported):
            return  # `(json, 1)[0]`, `(os.path, 1)[0]`: a ModuleType, whose attributes are Any
        if isinstance(value, ast.Call) and callee_name(value.func) == "super":
            return
        yield value
        yield from _chain(value, instrumented, depth + 1)
    elif isinstance(node, ast.Name):
        binding = binding_of(node, instrumented.scopes.get(id(node), []))
        if binding is not None and binding.kind == "assigned" and binding.value is not None:
            yield binding.value
            yield from _chain(binding.value, instrumented, depth + 1)


def _through_names(
    part: ast.expr, instrumented: Instrumented, depth: int = 0
) -> Iterator[ast.expr]:
    """The part, and for a name the parts of the value last assigned to it: ``literal + Any``
    keeps the LiteralString overload of ``+``, so the name itself is LiteralString."""
    yield part
    if not isinstance(part, ast.Name) or depth >= 3:
        return
    binding = binding_of(part, instrumented.scopes.get(id(part), []))
    if binding is not None and binding.kind == "assigned" and binding.annotation is None:
        assert binding.value is not None
        for inner in composition_parts(binding.value):
            if inner is not binding.value or not isinstance(inner, ast.Name):
                yield from _through_names(inner, instrumented, depth + 1)


def same_expression(source: bytes, offsets: Sequence[int], node: ast.expr) -> bool:
    """Whether the node's position really spans its own text (Python before 3.12 misplaces
    some f-string fields); a probe around the wrong span would break the copy."""
    try:
        text = _text(source, offsets, node, limit=1 << 30)
        copy = ast.parse(f"({text})", mode="eval").body
    except SyntaxError:
        return False
    return ast.dump(copy) == ast.dump(node)


def prepared(
    source: str, tree: ast.Module, calls: Sequence[ast.Call] | None = None
) -> Instrumented:
    """A file ready to tag: its scopes, imported names and ``join`` arguments, nothing tagged."""
    calls = all_calls(tree) if calls is None else calls
    imported = frozenset(
        (alias.asname or alias.name).split(".")[0]
        for node in all_nodes(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    )
    joined = frozenset(
        id(node.args[0])
        for node in calls
        if isinstance(node.func, ast.Attribute) and node.func.attr == "join" and len(node.args) == 1
    )
    return Instrumented(source, tree, {}, scopes=scopes_at(tree), imported=imported, joined=joined)


def origin_nodes(part: ast.expr, instrumented: Instrumented) -> list[ast.expr]:
    """The nodes whose revealed types tell where ``part``'s type comes from."""
    return list(_chain(part, instrumented))


def analyse(source: str, tree: ast.Module) -> Instrumented:
    """Find the parts of every call's arguments and the nodes that tell where an Any comes
    from, and tag them all."""
    data, offsets = source.encode("utf-8"), byte_offsets(source)
    calls = all_calls(tree)
    instrumented = prepared(source, tree, calls)
    for call in calls:
        parts: list[tuple[int, ast.expr]] = []
        for index, part in call_parts(call):
            for found in _through_names(part, instrumented):
                if same_expression(data, offsets, found):
                    parts.append((index, found))
        if not parts:
            continue
        instrumented.parts[id(call)] = parts
        for _, part in parts:
            instrumented.tag(part)
            for node in _chain(part, instrumented):
                if same_expression(data, offsets, node):
                    instrumented.tag(node)
    return instrumented


def all_calls(tree: ast.Module) -> list[ast.Call]:
    return sorted(
        (node for node in all_nodes(tree) if isinstance(node, ast.Call)),
        key=lambda c: (c.lineno, c.col_offset, -(c.end_lineno or 0), -(c.end_col_offset or 0)),
    )
