"""Source in a newer grammar than the Python running us, rewritten so that ``ast`` reads it.

A project may target Python 3.12 or later while the tool runs on 3.11: its PEP 701 f-strings
(``f"{d["k"]}"``), PEP 695 type parameters and ``type`` statements (3.12), PEP 696 defaults
(3.13), PEP 750 t-strings and PEP 758 ``except A, B:`` (3.14) are valid for the checker and a
syntax error for our ``ast``.  No finding may be lost to that, so such a file is parsed by
tree-sitter's Python grammar (C, well kept, the newest grammar; measured against the
alternatives in ``scripts/parser_choice.py``) and each construct is rewritten into the host's
grammar in place: every byte keeps its offset and every line its number, so the ``ast`` of
the rewrite gives the positions the checker reports.  What the analysis needs survives: calls,
their arguments, and an f-string stays an f-string wherever its quotes allow.

tree-sitter is an optional dependency (``typing-literalstring[grammar]``): a library that
depends on our runtime should not carry a parser.  Without it such a file is refused with a
message that names the fix.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

INSTALL_HINT = (
    "install typing-literalstring[grammar] (tree-sitter) or run typing-literalstring under "
    "a Python as new as the project's"
)


@dataclass(frozen=True)
class Rewritten:
    text: str
    needs: str  # the newest Python grammar the file used ("3.12")


@functools.lru_cache(maxsize=None)
def _parser() -> Parser | None:
    try:
        import tree_sitter_python
        from tree_sitter import Language, Parser
    except ImportError:
        return None
    return Parser(Language(tree_sitter_python.language()))


def available() -> bool:
    return _parser() is not None


def downlevel(text: str) -> Rewritten | None:
    """``text`` in the host's grammar, or None if it uses no newer construct we can rewrite
    (or no parser is installed)."""
    parser = _parser()
    if parser is None:
        return None
    data = bytearray(text.encode("utf-8"))
    edits = _Edits(data)
    _walk(parser.parse(bytes(data)).root_node, edits)
    if not edits.needs:
        return None
    return Rewritten(
        data.decode("utf-8"), max(edits.needs, key=lambda v: tuple(map(int, v.split("."))))
    )


class _Edits:
    """Byte edits that keep the length of what they replace."""

    def __init__(self, data: bytearray) -> None:
        self.data = data
        self.needs: set[str] = set()

    def put(self, start: int, replacement: bytes) -> None:
        self.data[start : start + len(replacement)] = replacement

    def blank(self, start: int, end: int) -> None:
        """Spaces over ``start:end``; a line break in it stays, joined by a backslash in
        place of the byte before it, so that the statement goes on."""
        for i in range(start, end):
            if self.data[i] == ord("\n"):
                if i > start:
                    self.data[i - 1] = ord("\\")
            else:
                self.data[i] = ord(" ")


def _walk(node: Node, edits: _Edits) -> None:
    kind = node.type
    if kind in ("function_definition", "class_definition"):
        for child in node.children:
            if child.type == "type_parameter":
                edits.needs.add("3.13" if _has_default(child) else "3.12")
                edits.blank(child.start_byte, child.end_byte)
    elif kind == "type_alias_statement":
        _type_alias(node, edits)
        return
    elif kind == "string" and _is_formatted(node):
        if _formatted_string(node, edits):
            return
    elif kind == "except_clause":
        _except_tuple(node, edits)
    for child in node.children:
        _walk(child, edits)


def _has_default(parameters: Node) -> bool:
    return any(c.type == "=" or c.type == "ERROR" for c in _descendants(parameters))


def _descendants(node: Node) -> Iterator[Node]:
    for child in node.children:
        yield child
        yield from _descendants(child)


def _type_alias(node: Node, edits: _Edits) -> None:
    """``type X[T] = v`` becomes ``X         = v``: an assignment, the value in place."""
    edits.needs.add("3.12")
    left = node.child_by_field_name("left") or (node.children[1] if node.child_count > 1 else None)
    if left is None:
        return
    name = left.children[0] if left.type == "generic_type" else left
    while name.type == "type" and name.children:
        name = name.children[0]
    if name.type == "generic_type":
        name = name.children[0]
    raw = name.text or b""
    edits.blank(node.start_byte, left.end_byte)
    edits.put(node.start_byte, raw)
    value = node.child_by_field_name("right")
    if value is not None:
        _walk(value, edits)


def _prefix_and_quote(start: Node) -> tuple[bytes, bytes]:
    raw = start.text or b""
    prefix = raw.rstrip(b"\"'")
    return prefix, raw[len(prefix) :]


def _is_formatted(node: Node) -> bool:
    start = node.children[0] if node.children else None
    if start is None or start.type != "string_start":
        return False
    prefix = _prefix_and_quote(start)[0].lower()
    return b"f" in prefix or b"t" in prefix


def _formatted_string(node: Node, edits: _Edits) -> bool:
    """Rewrite an f-string (or t-string) that the host cannot read; True if handled whole."""
    start = node.children[0]
    prefix, quote = _prefix_and_quote(start)
    if b"t" in prefix.lower():
        # A t-string builds a Template, not a str, but every part of it is where an f-string
        # has it: read as one, its calls and values stay visible.
        edits.needs.add("3.14")
        at = start.start_byte + prefix.lower().index(b"t")
        edits.put(at, b"F" if prefix[prefix.lower().index(b"t")] == ord("T") else b"f")
    fields = [c for c in node.children if c.type == "interpolation"]
    texts = [f.text or b"" for f in fields]
    triple = len(quote) == 3
    needs = any(_field_needs_newer_grammar(t, quote) for t in texts)
    if not needs:
        return False  # the host reads it; nested strings need nothing either
    edits.needs.add("3.12")
    nested = [s for f in fields for s in _descendants(f) if s.type == "string"]
    simple = all(not any(c.type == "interpolation" for c in s.children) for s in nested)
    if simple and (triple or not any(b"\n" in t for t in texts)):
        _requote_fields(fields, nested, quote, edits)
    else:
        _as_tuple(node, edits)
    return True


def _field_needs_newer_grammar(field: bytes, quote: bytes) -> bool:
    """Before 3.12 a field may hold neither a backslash nor a comment, nor the string's own
    quote, nor (in a one-line string) a line break."""
    if b"\\" in field or b"#" in field:
        return True
    return quote in field if len(quote) == 3 else quote in field or b"\n" in field


def _requote_fields(fields: list[Node], nested: list[Node], quote: bytes, edits: _Edits) -> None:
    """Keep the f-string; give the strings inside its fields the other quote, and take out what
    a 3.11 field may not hold (a backslash, a comment, the outer quote)."""
    other = b"'" if quote[:1] == b'"' else b'"'
    for string in nested:
        for part in string.children:
            if part.type == "string_start":
                prefix, inner = _prefix_and_quote(part)
                edits.put(part.start_byte + len(prefix), other * len(inner))
            elif part.type == "string_end":
                edits.put(part.start_byte, other * len(part.text or b""))
            else:
                for i in range(part.start_byte, part.end_byte):
                    if edits.data[i] in (ord("\\"), other[0], quote[0]):
                        edits.data[i] = ord(" ")
    for field in fields:
        for child in _descendants(field):
            if child.type == "comment":
                edits.blank(child.start_byte, child.end_byte)
        for i in range(field.start_byte, field.end_byte):
            if edits.data[i] == ord("\\") and not _inside(i, nested):
                edits.data[i] = ord(" ")  # a line continuation


def _inside(offset: int, nodes: list[Node]) -> bool:
    return any(n.start_byte <= offset < n.end_byte for n in nodes)


def _as_tuple(node: Node, edits: _Edits) -> None:
    """The last resort: ``f"a{x!r}b{y:>{w}}"`` becomes ``(   x  ,  y      ,)``, a tuple of its
    fields' expressions in place, each still checked for calls."""
    for part in node.children:
        if part.type == "string_start":
            edits.blank(part.start_byte, part.end_byte)
            edits.put(part.start_byte, b"(")
        elif part.type == "string_end":
            edits.blank(part.start_byte, part.end_byte)
            edits.put(part.start_byte, b")")
        elif part.type == "interpolation":
            for inner in part.children:
                if inner.type == "{":
                    edits.put(inner.start_byte, b" ")
                elif inner.type == "}":
                    edits.put(inner.start_byte, b",")
                elif inner.type in ("type_conversion", "format_specifier", "="):
                    _spaces(edits, inner.start_byte, inner.end_byte)
                elif inner.type != "comment":
                    _walk(inner, edits)
        else:
            _spaces(edits, part.start_byte, part.end_byte)


def _spaces(edits: _Edits, start: int, end: int) -> None:
    """Spaces over ``start:end``, line breaks kept (we are inside parentheses)."""
    for i in range(start, end):
        if edits.data[i] != ord("\n"):
            edits.data[i] = ord(" ")


def _except_tuple(node: Node, edits: _Edits) -> None:
    """PEP 758's ``except A, B:`` becomes ``except(A,B):``: the two bytes the parentheses take
    come from the space after ``except`` and one after a comma."""
    children = node.children
    if not any(c.type == "," for c in children) or len(children) < 2:
        return
    names = [c for c in children if c.type not in ("except", ",", ":", "block", "comment")]
    if not names or children[0].type != "except":
        return
    after_keyword = children[0].end_byte
    first, last = names[0].start_byte, names[-1].end_byte
    if first == after_keyword:
        return
    gaps = [
        i
        for c in children
        if c.type == ","
        for i in range(c.end_byte, last)
        if edits.data[i] == ord(" ")
    ]
    if not gaps:
        return
    edits.needs.add("3.14")
    body = bytes(edits.data[first:last])
    gap = gaps[0] - first
    squeezed = body[:gap] + body[gap + 1 :]
    edits.put(after_keyword, b"(" + bytes(edits.data[after_keyword + 1 : first]) + squeezed + b")")
