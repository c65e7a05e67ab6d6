"""Edit an INI file (mypy.ini, .mypy.ini, setup.cfg) by lines, so that everything else stays as
it was written: comments, blank lines, the order of sections and keys, other tools' sections.

configparser could read and write the file, but writing drops every comment and rewrites every
value.  So the text is edited line by line, following configparser's own rules (mypy reads the
file with a default ``RawConfigParser``): a section starts at a ``[name]`` line, a key at a
``key = value`` or ``key: value`` line, and a value goes on over the following lines indented
deeper than its key (blank and comment lines between them included).

* a list value gets our items inserted (``first``) or appended (``add``) in its own text, with
  the separator it already uses, a multi-line value staying multi-line;
* a new key goes after the last value line of its section; a new section at the end of the file,
  after a blank line.

The result is read again with configparser and must hold exactly the old values plus ours (a
list compared item by item, split as mypy splits it), or nothing is written.
"""

from __future__ import annotations

import configparser
import re
from dataclasses import dataclass
from typing import Sequence

from typing_literalstring.core.config_text import NotEditableError

ADD = "add"  # our items after the user's
FIRST = "first"  # our items before the user's
REPLACE = "replace"  # the whole value

_SECTION = re.compile(r"\[(?P<name>.+)\]")  # configparser.SECTCRE, matched on the stripped line
_OPTION = re.compile(r"(?P<key>.*?)\s*[=:]\s*(?P<value>.*)$")  # configparser.OPTCRE


@dataclass(frozen=True)
class IniEdit:
    """``key`` of ``section`` to hold ``items`` (joined with ", " where the value is new)."""

    section: str
    key: str
    items: tuple[str, ...]
    merge: str = REPLACE
    separators: str = ","  # what separates a list's items (mypy_path: ",:")


def split_items(value: str, separators: str) -> list[str]:
    """A list value's items as mypy reads them (empty items, such as after a trailing comma,
    are not items)."""
    return [item.strip() for item in re.split(f"[{separators}]", value) if item.strip()]


@dataclass
class _Key:
    name: str  # lower-cased, as configparser compares keys
    line: int  # the key's line
    last: int  # the last line of its value
    indent: int


@dataclass
class _Section:
    name: str
    header: int
    last: int  # the last line holding a key or a value of this section (the header if none)
    keys: dict[str, _Key]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _is_comment(stripped: str) -> bool:
    return stripped.startswith(("#", ";"))


def _layout(lines: Sequence[str]) -> list[_Section]:
    sections: list[_Section] = []
    current: _Key | None = None
    for number, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or _is_comment(stripped):
            continue
        if current is not None and sections and _indent(line) > current.indent:
            current.last = number  # a continuation of the value
            sections[-1].last = number
            continue
        header = _SECTION.match(stripped)
        if header:
            sections.append(_Section(header.group("name"), number, number, {}))
            current = None
            continue
        option = _OPTION.match(stripped)
        if option and sections:
            name = option.group("key").strip().lower()
            current = _Key(name, number, number, _indent(line))
            sections[-1].keys[name] = current
            sections[-1].last = number
    return sections


def _separator(value: str, separators: str) -> str:
    used = re.search(rf"[ \t]*[{separators}]\s*", value)
    return used.group() if used else ", "


def _edit_value(lines: list[str], key: _Key, edit: IniEdit, value: str) -> None:
    """Put our items into ``value``, the value of ``key`` as configparser reads it, in the
    value's own text."""
    first = _OPTION.match(lines[key.line].strip())
    assert first is not None
    current = split_items(value, edit.separators)
    ours = [item for item in edit.items if item not in current]
    if edit.merge == REPLACE or not current:
        prefix = lines[key.line][: len(lines[key.line]) - len(first.group("value"))]
        del lines[key.line + 1 : key.last + 1]
        lines[key.line] = prefix.rstrip() + " " + ", ".join(edit.items)
        return
    if not ours:
        return
    # The separator as written, indentation included (configparser strips each line).
    raw = [first.group("value")] + [
        line
        for line in lines[key.line + 1 : key.last + 1]
        if line.strip() and not _is_comment(line.strip())
    ]
    separator = _separator("\n".join(raw), edit.separators)
    if len(raw) > 1 and not re.search(f"[{edit.separators}]", "\n".join(raw)):
        # One item on a line of its own: ours on lines of their own, indented alike.
        separator = ",\n" + raw[-1][: _indent(raw[-1])]
    if edit.merge == FIRST:
        # Before the first item: on the key's line, or on the first line of the value.
        number = key.line
        at = len(lines[number]) - len(first.group("value"))
        if not first.group("value"):
            number = next(
                n
                for n in range(key.line + 1, key.last + 1)
                if lines[n].strip() and not _is_comment(lines[n].strip())
            )
            at = _indent(lines[number])
        line = lines[number]
        lines[number] = line[:at] + separator.join(ours) + separator + line[at:]
        return
    # ADD: after the last item, which is on the value's last line.
    body = lines[key.last].rstrip()
    trailing = body.endswith(tuple(edit.separators))  # "a, b," (a trailing comma)
    if "\n" in separator:  # one item a line: ours on lines of their own, indented alike
        comma, lead = separator.split("\n")[0].strip(), separator.split("\n")[-1]
        added = [f"{lead}{item}{comma}" for item in ours]
        if not trailing:
            body += comma
            added[-1] = added[-1][: len(added[-1]) - len(comma)]
        lines[key.last] = "\n".join([body, *added])
    elif trailing:
        lines[key.last] = body + " " + separator.join(ours) + separator.strip()
    else:
        lines[key.last] = body + separator + separator.join(ours)


def apply_ini_edits(text: str, edits: Sequence[IniEdit], name: str) -> str:
    """``text`` (normalised: "\\n" endings) with ``edits`` made; ``name`` is the file's, for
    messages.  Raises NotEditableError when the file cannot be read as mypy reads it, or the
    edit would change anything else."""
    before = _parse(text, name)
    lines = text.split("\n")
    for edit in edits:
        lines = "\n".join(lines).split("\n")  # an edit may have added lines
        sections = {s.name: s for s in _layout(lines)}
        section = sections.get(edit.section)
        if section is None:  # at the end, after a blank line
            while lines and not lines[-1].strip():
                lines.pop()
            lines += ["", f"[{edit.section}]"] if lines else [f"[{edit.section}]"]
            lines += [f"{edit.key} = {', '.join(edit.items)}", ""]
            continue
        key = section.keys.get(edit.key.lower())
        if key is not None:
            _edit_value(lines, key, edit, _parse("\n".join(lines), name)[edit.section][key.name])
            continue
        indent = " " * min((k.indent for k in section.keys.values()), default=0)
        lines.insert(section.last + 1, f"{indent}{edit.key} = {', '.join(edit.items)}")
    edited = "\n".join(lines)
    _verify(before, _parse(edited, name), edits, name)
    return edited


def _parse(text: str, name: str) -> dict[str, dict[str, str]]:
    parser = configparser.RawConfigParser()
    try:
        parser.read_string(text, source=name)
    except configparser.Error as error:
        raise NotEditableError(f"{name} cannot be read as mypy reads it: {error}") from error
    return {section: dict(parser.items(section)) for section in parser.sections()}


def _verify(
    before: dict[str, dict[str, str]],
    after: dict[str, dict[str, str]],
    edits: Sequence[IniEdit],
    name: str,
) -> None:
    wanted = {section: dict(values) for section, values in before.items()}
    for edit in edits:
        section = wanted.setdefault(edit.section, {})
        got = after.get(edit.section, {}).get(edit.key.lower())
        if got is None or split_items(got, edit.separators) != list(edit.items):
            raise NotEditableError(f"init could not write {edit.key} into [{edit.section}]")
        section[edit.key.lower()] = got
    if wanted != after:
        raise NotEditableError(f"init could not edit {name} without changing other values")
