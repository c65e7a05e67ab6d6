"""Edit pyproject.toml and keep its layout: what ``init`` writes lands where a person would put it.

tomlkit keeps comments and the text of the items it is not asked to change, but replacing an
array with a new list writes it again on one line in double quotes (an eight-line single-quoted
``exclude`` became one 151-character line, issue 29), and a new table goes after the last table
of its parent, wherever that is in the file (``[tool.pyright]`` landed between
``[tool.setuptools_scm]`` and ``[project.scripts]``, with no blank line), under an empty
``[tool.ty]`` header when only ``[tool.ty.src]`` was wanted.  So:

* an existing array is changed in place: items are inserted or appended in the quotes the array
  already uses, a multi-line array stays multi-line, and its comment stays;
* a new key in an existing table is added by tomlkit, at the end of that table;
* a table that does not exist yet is written as text after the last ``[tool.*]`` table (or at
  the end of the file), with a blank line before it, under its own full header only.

The result is parsed again and compared with the values wanted: an edit that would change any
other value raises instead of being written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, MutableMapping, Sequence, cast

import tomlkit
from tomlkit.items import AoT, Array, Item, String, StringType, Table

from typing_literalstring.core.config_text import NotEditableError

# Arrays longer than this on one line are written one item a line.
_ONE_LINE = 88
# A table header at the start of a line: `[tool.mypy]`, `[[tool.mypy.overrides]]`.
_HEADER = re.compile(r"^\[\[?\s*([^\]\s][^\]]*?)\s*\]\]?\s*(?:#.*)?$")


@dataclass(frozen=True)
class Edit:
    """One value to hold in the document: ``key`` of the table at ``table``."""

    table: tuple[str, ...]
    key: str
    value: object  # the whole value wanted (a merged list holds the user's items too)
    append_table: bool = False  # ``value`` is one table to add to the array of tables ``key``


def apply_edits(text: str, edits: Sequence[Edit], name: str = "pyproject.toml") -> str:
    """``text`` with ``edits`` made, everything else kept as it was written; ``name`` is the
    file's, for messages (ty.toml and pyrefly.toml are edited alike, their tables without the
    ``[tool.<checker>]`` prefix)."""
    try:
        document = tomlkit.parse(text)
    except ValueError as error:  # tomlkit's ParseError
        raise NotEditableError(f"{name} does not parse: {error}") from error
    new: dict[tuple[str, ...], list[Edit]] = {}
    for edit in edits:
        table = _explicit_table(document, edit.table)
        if table is None or (edit.append_table and edit.key not in table):
            new.setdefault(_new_table(edit), []).append(edit)
            continue
        _set(table, edit)
    edited = tomlkit.dumps(document)
    if new:
        edited = _insert_tables(edited, _render_tables(new))
    _verify(text, edited, edits, name)
    return edited


def _new_table(edit: Edit) -> tuple[str, ...]:
    return (*edit.table, edit.key) if edit.append_table else edit.table


def render_tables(edits: Sequence[Edit]) -> str:
    """``edits`` as the text of new tables (what to add by hand when a file cannot be edited);
    keys of the top level first, without a header."""
    tables: dict[tuple[str, ...], list[Edit]] = {}
    for edit in edits:
        tables.setdefault(_new_table(edit), []).append(edit)
    top = tables.pop((), [])
    head = "".join(_line(e.key, e.value) + "\n" for e in top)
    return head + ("\n" if head and tables else "") + (_render_tables(tables) if tables else "")


def _explicit_table(
    document: tomlkit.TOMLDocument, path: tuple[str, ...]
) -> MutableMapping[str, Any] | None:
    """The table at ``path`` if the file defines it (its header or an inline table), else None:
    a super-table that exists only through its sub-tables' headers gets a header of its own
    rather than keys tomlkit would put under no header."""
    table: object = document
    for name in path:
        if not isinstance(table, MutableMapping) or name not in table:
            return None
        table = cast("MutableMapping[str, object]", table)[name]
    if isinstance(table, Table) and table.is_super_table():
        return None
    return cast("MutableMapping[str, Any]", table) if isinstance(table, MutableMapping) else None


def _set(table: MutableMapping[str, Any], edit: Edit) -> None:
    current = table.get(edit.key)
    if edit.append_table:
        assert isinstance(current, AoT)
        cast("list[object]", current).append(tomlkit.item(_last(edit.value)))
        return
    wanted = edit.value
    if isinstance(current, Array) and isinstance(wanted, list):
        replacement = _edited_array(current, cast("list[object]", wanted))  # pyright: ignore[reportUnnecessaryCast]
        if replacement is not current:
            table[edit.key] = replacement
        return
    table[edit.key] = _item(edit.value)


def _edited_array(array: Array, wanted: list[object]) -> Array:
    """``array`` holding ``wanted``: the user's items where they were, ours inserted or appended
    in the array's own style.  A one-line array is written again on one line (tomlkit's insert
    leaves no space after the comma), with its comment."""
    current: list[object] = list(cast("list[object]", array.unwrap()))
    items: list[object] = list(array)
    if current == wanted:
        return array
    literal = bool(items) and all(
        isinstance(i, String) and i.type in (StringType.SLL, StringType.MLL) for i in items
    )
    if "\n" in array.as_string() and all(v in wanted for v in current):
        # The user's items keep their order in ours: insert each of ours before the first of the
        # user's that follows it.
        for index, value in enumerate(wanted):
            if index >= len(array) or array[index] != value:
                if value in current:
                    break  # a reordering, not an insertion: written again below
                cast("list[object]", array).insert(index, _item(value, literal))
        if cast("list[object]", array.unwrap()) == wanted:
            return array
    rebuilt = tomlkit.array()
    for value in wanted:
        cast("list[object]", rebuilt).append(_item(value, literal))
    if "\n" in array.as_string() or len(rebuilt.as_string()) > _ONE_LINE:
        rebuilt.multiline(True)
    rebuilt.trivia.comment_ws = array.trivia.comment_ws
    rebuilt.trivia.comment = array.trivia.comment
    return rebuilt


def _item(value: object, literal: bool = False) -> Item:
    if isinstance(value, str):
        return tomlkit.string(value, literal=literal and "'" not in value and "\n" not in value)
    if isinstance(value, list):
        array = tomlkit.array()
        for v in cast("list[object]", value):
            cast("list[object]", array).append(_item(v, literal))
        if len(array.as_string()) > _ONE_LINE:
            array.multiline(True)
        return array
    return tomlkit.item(value)


def _render_tables(new: dict[tuple[str, ...], list[Edit]]) -> str:
    """The new tables as text, each under its full header, a blank line between them."""
    blocks: list[str] = []
    for path, edits in new.items():
        header = ".".join(tomlkit.key(name).as_string() for name in path)
        if edits[0].append_table:
            table = cast("dict[str, object]", _last(edits[0].value))
            lines = [f"[[{header}]]"]
            lines += [_line(k, v) for k, v in table.items()]
        else:
            lines = [f"[{header}]"]
            lines += [_line(e.key, e.value) for e in edits]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def _last(value: object) -> object:
    """The table to append: an array of tables' value holds the user's tables before ours."""
    return cast("list[object]", value)[-1] if isinstance(value, list) else value


def _line(key: str, value: object) -> str:
    """``key = value`` for a new table; a long list filled up to the line length, several
    items a line, as a formatter would (the overlay's ~50 module names are 10 lines, not 50)."""
    name = tomlkit.key(key).as_string()
    one_line = _item(value).as_string()
    if not isinstance(value, list) or len(name) + 3 + len(one_line) <= _ONE_LINE:
        return f"{name} = {one_line}"
    lines: list[str] = []
    for item in cast("list[object]", value):
        text = _item(item).as_string() + ","
        if lines and len(lines[-1]) + 1 + len(text) <= _ONE_LINE:
            lines[-1] += " " + text
        else:
            lines.append("    " + text)
    return f"{name} = [\n" + "\n".join(lines) + "\n]"


def _insert_tables(text: str, block: str) -> str:
    """``block`` after the last ``[tool.*]`` table of ``text``, else at its end, with one blank
    line before it (and after it, when a table follows)."""
    lines = text.splitlines(keepends=True)
    headers: list[tuple[int, str]] = []
    in_string: str | None = None
    for number, line in enumerate(lines):
        if in_string is None:
            match = _HEADER.match(line.rstrip("\r\n"))
            if match:
                headers.append((number, match.group(1).replace(" ", "")))
        # Headers are not looked for inside multi-line strings.
        for quote in ('"""', "'''"):
            if line.count(quote) % 2:
                in_string = (
                    quote if in_string is None else None if in_string == quote else in_string
                )
    tool = [i for i, (_, name) in enumerate(headers) if name == "tool" or name.startswith("tool.")]
    if not tool or tool[-1] == len(headers) - 1:
        before = text if text.endswith("\n") or not text else text + "\n"
        before = before.rstrip("\n") + "\n" if before.strip() else ""
        return before + ("\n" if before else "") + block
    end = headers[tool[-1] + 1][0]
    # Comments and blank lines just above the next header belong to it.
    while end > headers[tool[-1]][0] + 1 and (
        not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")
    ):
        end -= 1
    head = "".join(lines[:end]).rstrip("\n") + "\n"
    tail = "".join(lines[end:]).lstrip("\n")
    return head + "\n" + block + "\n" + tail


def _verify(original: str, edited: str, edits: Sequence[Edit], name: str) -> None:
    """Refuse an edit whose text does not hold exactly the values wanted."""
    try:
        wanted: dict[str, Any] = tomlkit.parse(original).unwrap()
        got = tomlkit.parse(edited).unwrap()
    except ValueError as error:  # tomlkit's ParseError
        raise NotEditableError(f"the edited {name} does not parse: {error}") from error
    for edit in edits:
        table: dict[str, Any] = wanted
        for name in edit.table:
            table = table.setdefault(name, {})
        if edit.append_table:
            previous = cast("list[object]", table.get(edit.key, []))
            table[edit.key] = [*previous, _last(edit.value)]
        else:
            table[edit.key] = edit.value
    if got != wanted:
        raise NotEditableError(f"init could not edit {name} without changing other values")
