"""The types a checker prints, read as data, not as prose.

A checker's ``reveal_type`` prints a type in the checker's own notation: ``LiteralString``,
``Literal['a', 'b']``, ``str | None`` (pyright, ty, pyrefly), ``builtins.str``,
``Literal['a']?`` and ``Union[...]`` (mypy, zuban).  A literal string type carries text of the
checked project, which may be crafted to look like any other type
(``Literal['] | LiteralString | Literal[']``), so every split here honours quotes: a quoted
string is one token whatever it holds, backslash escapes included.  Text that is not a
well-formed type in this notation is refused (``Malformed``), never guessed at.
"""

from __future__ import annotations

from typing import Iterator, Sequence

_OPENING = {"[": "]", "(": ")"}
_CLOSING = frozenset(_OPENING.values())


class Malformed(ValueError):
    """The text is not a type as the checker prints one: an unclosed quote or bracket."""


def _scan(text: str) -> Iterator[tuple[int, str, int]]:
    """(position, character, depth) of each character outside quoted strings, with the depth
    of brackets and parentheses before it.  Raises ``Malformed`` on an unclosed quote or
    unbalanced brackets."""
    depth: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char in "'\"":
            end = index + 1
            while end < len(text) and text[end] != char:
                end += 2 if text[end] == "\\" else 1
            if end >= len(text):
                raise Malformed(f"unclosed quote in {text!r}")
            index = end + 1
            continue
        if char in _CLOSING:
            if not depth or depth.pop() != char:
                raise Malformed(f"unbalanced {char!r} in {text!r}")
            yield index, char, len(depth)
        else:
            yield index, char, len(depth)
            if char in _OPENING:
                depth.append(_OPENING[char])
        index += 1
    if depth:
        raise Malformed(f"unclosed {depth[-1]!r} in {text!r}")


def without_builtins(text: str) -> str:
    """``text`` without the ``builtins.`` that mypy and zuban write before builtin classes,
    outside quoted strings only; a text that is no well-formed type is left as it is."""
    if "builtins." not in text:
        return text
    try:
        places = [i for i, _, _ in _scan(text) if text.startswith("builtins.", i)]
    except Malformed:
        return text
    out: list[str] = []
    last = 0
    for index in places:
        if index == 0 or not (text[index - 1].isalnum() or text[index - 1] in "_."):
            out.append(text[last:index])
            last = index + len("builtins.")
    return "".join(out) + text[last:]


def well_formed(text: str) -> bool:
    """Whether every quote and bracket of ``text`` closes, in order."""
    try:
        for _ in _scan(text):
            pass
    except Malformed:
        return False
    return True


def split_top(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` where it stands outside quotes and brackets."""
    pieces: list[str] = []
    start = 0
    for index, char, depth in _scan(text):
        if depth == 0 and char == separator[0] and text.startswith(separator, index):
            pieces.append(text[start:index])
            start = index + len(separator)
    return [*pieces, text[start:]]


def _normal(member: str) -> str:
    """A member without mypy's inference marks (``Literal['a']?``, ``str*``) and without the
    ``builtins.`` that mypy and zuban write (never inside a quoted string)."""
    member = member.strip()
    while member.endswith(("?", "*")):
        member = member[:-1].rstrip()
    if member.startswith("builtins."):
        member = member[len("builtins.") :]
    return member


def members(text: str) -> list[str]:
    """The members of a printed union, at the top level only, normalised (``_normal``):
    ``A | B``, ``Union[A, B]``, ``Optional[A]`` (``A`` and ``None``)."""
    found: list[str] = []
    for member in split_top(text.strip(), " | "):
        member = _normal(member)
        for wrapper, extra in (("Union[", ()), ("Optional[", ("None",))):
            if member.startswith(wrapper) and member.endswith("]"):
                inner = member[len(wrapper) : -1]
                found.extend(m for item in split_top(inner, ", ") for m in members(item))
                found.extend(extra)
                break
        else:
            found.append(member)
    return found


def tuple_items(text: str) -> list[str] | None:
    """The items of a printed ``tuple[A, B, ...]`` (``builtins.tuple`` too), or None."""
    text = _normal(text)
    if not (text.startswith("tuple[") and text.endswith("]")):
        return None
    try:
        return [item.strip() for item in split_top(text[len("tuple[") : -1], ", ")]
    except Malformed:
        return None


def tagged(text: str) -> tuple[int, str] | None:
    """A probe's answer: ``tuple[T, Literal[7]]`` -> (7, "T").  The tag is the last item, so
    whatever ``T`` holds (a signature, a crafted literal) cannot move it."""
    items = tuple_items(text)
    if items is None or len(items) < 2:
        return None
    tag = _normal(items[-1])
    if not (tag.startswith("Literal[") and tag.endswith("]") and tag[8:-1].isdigit()):
        return None
    return int(tag[8:-1]), ", ".join(items[:-1])


def is_literal_string(member: str) -> bool:
    """``LiteralString`` or a ``Literal`` of strings only (``Literal['a', "b"]``)."""
    member = _normal(member)
    if member in ("LiteralString", "typing.LiteralString", "typing_extensions.LiteralString"):
        return True
    if not (member.startswith("Literal[") and member.endswith("]")):
        return False
    try:
        values = split_top(member[len("Literal[") : -1], ", ")
    except Malformed:
        return False
    return bool(values) and all(_is_quoted(v.strip()) for v in values)


def _is_quoted(value: str) -> bool:
    """A quoted string and nothing else (no ``b''`` bytes, no number, no enum member)."""
    if len(value) < 2 or value[0] not in "'\"" or value[-1] != value[0]:
        return False
    try:
        return [index for index, _, _ in _scan(value)] == []
    except Malformed:
        return False


ANY_MEMBERS = frozenset(("Any", "Unknown", "typing.Any"))


def has_any(text: str) -> bool:
    """Whether a member of the printed union is Any or Unknown."""
    return any(m in ANY_MEMBERS or m.startswith("Any (") for m in members(text))


def only(members_: Sequence[str], allowed: frozenset[str]) -> bool:
    return bool(members_) and all(m in allowed for m in members_)


__all__ = [
    "ANY_MEMBERS",
    "Malformed",
    "has_any",
    "is_literal_string",
    "members",
    "split_top",
    "tagged",
    "tuple_items",
    "well_formed",
    "without_builtins",
]
