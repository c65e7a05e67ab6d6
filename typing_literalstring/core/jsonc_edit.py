"""Read and edit pyrightconfig.json as pyright reads it: JSON with comments (``//`` and
``/* */``) and trailing commas, which ``json`` refuses and a rewrite through ``json.dumps``
would drop.

``set_top_level`` changes one member of the top-level object in the text itself: a value is
replaced where it stands; a new member goes after the last one, on a line of its own indented
like the others (or inline, in a one-line object).  The result is read again and must hold
exactly the old members plus ours, or nothing is written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

from typing_literalstring.core.config_text import NotEditableError


@dataclass(frozen=True)
class _Token:
    kind: str  # one of "{}[]:," or "s" (a string) or "v" (another value: number, true, ...)
    start: int
    end: int


def _tokens(text: str) -> list[_Token]:
    """The tokens of ``text``, comments and whitespace left out."""
    tokens: list[_Token] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char.isspace():
            at += 1
        elif text.startswith("//", at):
            end = text.find("\n", at)
            at = len(text) if end < 0 else end
        elif text.startswith("/*", at):
            end = text.find("*/", at + 2)
            if end < 0:
                raise ValueError("a comment is not closed")
            at = end + 2
        elif char == '"':
            end = at + 1
            while end < len(text) and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            if end >= len(text):
                raise ValueError("a string is not closed")
            tokens.append(_Token("s", at, end + 1))
            at = end + 1
        elif char in "{}[]:,":
            tokens.append(_Token(char, at, at + 1))
            at += 1
        else:
            end = at
            while end < len(text) and not (text[end].isspace() or text[end] in '{}[]:,"/'):
                end += 1
            tokens.append(_Token("v", at, end))
            at = end
    return tokens


def loads(text: str) -> object:
    """The value of a JSONC text; ValueError when it is not one."""
    tokens = _tokens(text)
    parts: list[str] = []
    for index, token in enumerate(tokens):
        following = tokens[index + 1].kind if index + 1 < len(tokens) else ""
        if token.kind == "," and following in ("}", "]"):
            continue  # a trailing comma
        parts.append(text[token.start : token.end])
    return cast("object", json.loads(" ".join(parts)))


@dataclass(frozen=True)
class _Member:
    key: str
    key_start: int
    value_start: int
    value_end: int
    comma: int | None  # where the comma after it is, if any


def _members(text: str, tokens: list[_Token]) -> tuple[list[_Member], int]:
    """The members of the top-level object, and where its closing brace is."""
    if not tokens or tokens[0].kind != "{":
        raise ValueError("the file does not hold an object")
    members: list[_Member] = []
    index = 1
    while tokens[index].kind != "}":
        key, colon = tokens[index], tokens[index + 1]
        if key.kind != "s" or colon.kind != ":":
            raise ValueError("unexpected text in the object")
        start = index + 2
        end, depth = start, 0
        while True:  # the value: up to the next comma or brace at this depth
            kind = tokens[end].kind
            if kind in "{[":
                depth += 1
            elif kind in "}]":
                if depth == 0:
                    break
                depth -= 1
            elif kind == "," and depth == 0:
                break
            end += 1
        comma = tokens[end].start if tokens[end].kind == "," else None
        name = cast("str", json.loads(text[key.start : key.end]))
        members.append(_Member(name, key.start, tokens[start].start, tokens[end - 1].end, comma))
        index = end + 1 if comma is not None else end
    return members, tokens[index].start


def set_top_level(text: str, key: str, value: object, name: str) -> str:
    """``text`` with the top-level ``key`` holding ``value``; ``name`` is the file's, for
    messages."""
    try:
        before: object = loads(text) if text.strip() else {}
        if not isinstance(before, dict):
            raise ValueError("the file does not hold an object")
        tokens = _tokens(text) if text.strip() else []
        members, close = _members(text, tokens) if tokens else ([], -1)
    except (ValueError, IndexError) as error:
        raise NotEditableError(f"{name} cannot be read as pyright reads it: {error}") from error
    rendered = json.dumps(value)
    same = [m for m in members if m.key == key]
    if same:
        member = same[-1]  # the last one wins, as in JSON.parse
        edited = text[: member.value_start] + rendered + text[member.value_end :]
    elif not tokens:
        edited = f'{{\n  "{key}": {rendered}\n}}\n'
    elif not members:
        inside = text[tokens[0].end : close]
        indent = "  " if "\n" in inside or "\n" not in text else ""
        line = f"\n{indent}{json.dumps(key)}: {rendered}\n"
        edited = text[: tokens[0].end] + line + text[close:]
    else:
        edited = _after_last(text, members[-1], members[0], close, key, rendered)
    after = loads(edited)
    wanted = dict(cast("dict[str, Any]", before))
    wanted[key] = value
    if after != wanted:
        raise NotEditableError(f"init could not edit {name} without changing other values")
    return edited


def _after_last(
    text: str, last: _Member, first: _Member, close: int, key: str, rendered: str
) -> str:
    member = f"{json.dumps(key)}: {rendered}"
    line_start = text.rfind("\n", 0, first.key_start) + 1
    indent = text[line_start : first.key_start]
    if "\n" not in text[first.key_start : close] or indent.strip():
        # One line: `{"a": 1}` becomes `{"a": 1, "stubPath": "..."}`.
        if last.comma is not None:
            return text[: last.comma + 1] + f" {member}," + text[last.comma + 1 :]
        return text[: last.value_end] + f", {member}" + text[last.value_end :]
    # Our member on a line of its own after the last one's line (a comment ending that line
    # stays where it is), with a comma after the last one if it had none.
    after = last.comma + 1 if last.comma is not None else last.value_end
    end_of_line = text.find("\n", after)
    if end_of_line < 0 or end_of_line > close:
        end_of_line = after
    trailing = "," if last.comma is not None else ""
    head = text[:after] if last.comma is not None else text[: last.value_end] + ","
    middle = text[after:end_of_line]
    return head + middle + f"\n{indent}{member}{trailing}" + text[end_of_line:]
