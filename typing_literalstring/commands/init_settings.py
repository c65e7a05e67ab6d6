"""What ``init`` sets for each checker, merged with what the project already has, and written
into the file the checker reads (config_files.py) in that file's own format.

A setting is named as pyproject.toml names it (``[tool.mypy] plugins``); config_files.py gives
every file's values in that shape, and ``edited`` turns the changes into edits of the file's
text: pyproject.toml, ty.toml and pyrefly.toml through pyproject_edit.py, mypy.ini, .mypy.ini
and setup.cfg through ini_edit.py, pyrightconfig.json through jsonc_edit.py.  Each editor keeps
everything else as it was written and refuses an edit that would change any other value; then
``instructions`` says what to add by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

from typing_literalstring.commands.config_files import (
    INI,
    JSON,
    MYPY_PLUGIN,
    PYPROJECT,
    Target,
    table_label,
)
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.core.ini_edit import IniEdit, split_items
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.stubspec import load_specs

CHECK_UNTYPED_DEFS = "check_untyped_defs"

# How a value already in pyproject.toml is combined with ours.
REPLACE = "replace"  # ours replaces it: refused without --force when different
ADD = "add"  # a list: our items are added after the user's (mypy's plugins, ty's excludes)
FIRST = "first"  # a search path: ours first, then the user's entries (mypy_path, ty's extra-paths)
APPEND_TABLE = "append-table"  # an array of tables ([[tool.mypy.overrides]]): ours appended


@dataclass(frozen=True)
class Setting:
    table: tuple[str, ...]  # e.g. ("tool", "pyright")
    key: str
    value: Any
    merge: str = REPLACE
    # Whether changing a value the user set needs --force even though ours can be merged into it.
    force_to_merge: bool = False
    # Set only where the user has not: a value of theirs is kept, and init says what it costs.
    unless_set: bool = False

    def merged(self, previous: object) -> object:
        """The value to write over ``previous``; None when the two cannot be merged."""
        if self.merge == REPLACE or previous is None:
            return self.value
        if self.merge == APPEND_TABLE:
            if not isinstance(previous, list):
                return None
            tables = cast("list[object]", previous)  # pyright: ignore[reportUnnecessaryCast]
            return tables if self.value in tables else [*tables, self.value]
        value: object = self.value
        ours = cast("list[object]", value) if isinstance(value, list) else [value]
        if isinstance(previous, str) and self.key == "mypy_path":
            # "a:b" or "a, b": the user's form and separator are kept.
            entries, separator = _split(previous, ",:")
            return separator.join(cast("list[str]", _combine(self.merge, ours, [*entries])))
        if isinstance(previous, str):  # mypy also reads plugins = "a, b": written as a list
            previous = _split(previous, ",")[0]
        if not isinstance(previous, list):
            return None
        return _combine(self.merge, ours, cast("list[object]", previous))  # pyright: ignore[reportUnnecessaryCast]

    @property
    def needs_force(self) -> bool:
        return self.merge == REPLACE or self.force_to_merge

    def describe(self, target: Target | None = None) -> str:
        """The setting as ``target``'s file writes it (pyproject.toml's form by default)."""
        if target is not None and target.kind == INI and self.merge == APPEND_TABLE:
            return f"[{_ini_section(self.value)}] ignore_errors = True"
        if self.merge == APPEND_TABLE:
            return f"[[{'.'.join((*self.table, self.key))}]] {_last(self.value)!r}"
        if target is not None and target.kind == JSON:
            return f'"{self.key}": {self.value!r}'
        label = table_label(target, self.table) if target else f"[{'.'.join(self.table)}]"
        return f"{label} {self.key} = {self.value!r}".lstrip()


def _split(value: str, separators: str) -> tuple[list[str], str]:
    """The entries of a separated string, and the separator to join them with (the user's)."""
    entries = [e.strip() for e in re.split(f"[{separators}]", value) if e.strip()]
    used = re.search(rf"\s*[{separators}]\s*", value)
    return entries, used.group() if used else ", "


def _combine(merge: str, ours: list[object], theirs: list[object]) -> list[object]:
    if merge == ADD:
        return [*theirs, *(v for v in ours if v not in theirs)]
    return [*ours, *(v for v in theirs if v not in ours)]  # FIRST


def _overlay_modules() -> list[str]:
    """The modules an overlay replaces, as mypy's per-module sections name them: the stdlib's
    and those of every third-party package we have specifications for, under both of the
    names the overlay copies it to (zuban names the modules of ``psycopg2-stubs/`` on its
    mypy_path ``psycopg2-stubs.*``)."""
    modules: list[str] = []
    for package in sorted({spec.package for spec in load_specs()}):
        if package.endswith(".pyi"):
            modules.append(package[: -len(".pyi")])
        else:
            modules += [package, f"{package}.*"]
    third_party = {s.package for specs in thirdparty.specifications().values() for s in specs}
    for package in sorted(third_party):
        modules += [package, f"{package}.*", f"{package}-stubs", f"{package}-stubs.*"]
    return modules


def settings_for(checker: str, folder: str) -> list[Setting]:
    """What makes ``checker`` load its overlay, in ``folder``/<checker> (relative to
    pyproject.toml), and check none of ``folder`` as the project's code."""
    overlay = f"{folder}/{checker}"
    if checker in ("pyright", "basedpyright"):
        return [Setting(("tool", checker), "stubPath", overlay)]
    if checker in ("mypy", "zuban"):
        # mypy resolves mypy_path against the working folder unless told otherwise.  Ours goes
        # first, so that no other entry shadows the modules it replaces; the user's entries stay.
        path = Setting(
            ("tool", "mypy"),
            "mypy_path",
            f"$MYPY_CONFIG_FILE_DIR/{overlay}",
            merge=FIRST,
            force_to_merge=True,
        )
        # Both report errors in the stubs they find on mypy_path as in the project's own files
        # (zuban checks every file there; mypy `.` reported 41 errors in the copies of Flask's
        # and Jinja2's inline types, which are stubs made from code): silence them.
        quiet = {"module": _overlay_modules(), "ignore_errors": True}
        overrides = Setting(("tool", "mypy"), "overrides", quiet, merge=APPEND_TABLE)
        if checker == "zuban":
            return [path, overrides]
        # mypy enforces LiteralString only with our plugin.  check_untyped_defs is not set,
        # though mypy skips the bodies of unannotated functions and the sinks in them: turned
        # on, it reported 479 more errors of django-extensions' own (57 to 536), and pyrefly,
        # which imports [tool.mypy], 260 more; init says so instead (command below).
        return [path, Setting(("tool", "mypy"), "plugins", [MYPY_PLUGIN], merge=ADD), overrides]
    if checker == "ty":
        return [
            Setting(("tool", "ty", "environment"), "extra-paths", [overlay], merge=FIRST),
            # ty, unlike the others, checks the files of hidden folders too.  The folder's
            # .ignore file already keeps it out (for a plain init too); the exclude keeps it out
            # where a team turns off ty's respect-ignore-files.  Its excludes add to its default
            # ones.
            Setting(("tool", "ty", "src"), "exclude", [f"{folder}/"], merge=ADD),
        ]
    if checker == "pyrefly":
        return [
            Setting(("tool", "pyrefly"), "typeshed-path", overlay),
            # Its typeshed-path is read for the standard library only: the third-party
            # packages at the overlay's top are found on its search path.
            Setting(("tool", "pyrefly"), "search-path", [overlay], merge=FIRST),
            # Without a preset pyrefly's lenient default reports no LiteralString error.
            Setting(("tool", "pyrefly"), "preset", "default"),
        ]
    raise TypingLiteralStringError(f"init does not know how to configure {checker}")


# The tables pyrefly reads as its configuration when it has none of its own ("using settings
# imported from [tool.pyright] ... (preset: default)"), and the files it would take them from.
_PYREFLY_IMPORTS = ("pyright", "basedpyright", "mypy")
_PYREFLY_SOURCES = ("pyrefly.toml", "pyrightconfig.json", "mypy.ini", ".mypy.ini")


def pyrefly_as_before(
    project: Path, values: dict[str, object], settings: list[Setting]
) -> list[Setting]:
    """``[tool.pyrefly] preset = "basic"`` when our settings would give pyrefly a configuration
    to import where it had none: pyrefly then stops using its lenient "basic" preset and takes
    the imported table's ("default" for [tool.pyright], "all" for [tool.basedpyright],
    "legacy" for [tool.mypy]).  Measured on litecli: its own `pyrefly check` went from 14 to 80
    errors after a plain init, from 2 to 969 with a [tool.basedpyright] table.  Setting the
    preset pyrefly used before keeps its run as it was; nothing is set when pyrefly is
    configured (or imports something) already, or when init configures pyrefly itself."""
    tool = values.get("tool")
    tables: set[str] = set(cast("dict[str, object]", tool)) if isinstance(tool, dict) else set()
    ours = {s.table[1] for s in settings if s.table[0] == "tool"}
    if (
        "pyrefly" in ours
        or "pyrefly" in tables
        or tables & set(_PYREFLY_IMPORTS)
        or not ours & set(_PYREFLY_IMPORTS)
        or any((project / name).exists() for name in _PYREFLY_SOURCES)
    ):
        return []
    return [Setting(("tool", "pyrefly"), "preset", "basic", unless_set=True)]


@dataclass(frozen=True)
class Change:
    setting: Setting
    previous: object  # None when the key was not set

    @property
    def needed(self) -> bool:
        return bool(self.previous != self.setting.value)


def _lookup(values: dict[str, object], setting: Setting) -> object:
    table: object = values
    for name in (*setting.table, setting.key):
        if not isinstance(table, dict):
            return None
        table = cast("dict[str, object]", table).get(name)  # pyright: ignore[reportUnnecessaryCast]
    return table


def plan(
    values: dict[str, Any], settings: list[Setting], force: bool, target: Target
) -> list[Change]:
    """What each setting becomes in ``target``'s file, whose ``values`` are given in
    pyproject's shape; refuses before any write when a setting would replace a value of the
    user's (unless ``force``)."""
    where = str(target.path)
    changes: list[Change] = []
    conflicts: list[str] = []
    for setting in settings:
        previous = _lookup(values, setting)
        merged = setting.merged(previous)
        change = Change(
            replace(setting, value=setting.value if merged is None else merged), previous
        )
        if setting.unless_set and previous is not None:
            change = Change(replace(setting, value=previous), previous)  # theirs, kept
        changes.append(change)
        if not change.needed or previous is None:
            continue
        if merged is None or setting.merge == REPLACE:
            conflicts.append(f"{setting.describe(target)} would replace {previous!r}")
        elif setting.needs_force:
            label = table_label(target, setting.table)
            conflicts.append(f"{label} {setting.key} = {previous!r} would become {merged!r}")
    pyrights = {"pyright", "basedpyright"}
    tools = values.get("tool")
    ours = {c.setting.table[1] for c in changes if c.needed and c.setting.table[0] == "tool"}
    tables = {*(cast("dict[str, object]", tools) if isinstance(tools, dict) else {}), *ours}
    if target.kind == PYPROJECT and pyrights & ours and pyrights <= tables:
        # Measured: basedpyright then stops reading pyproject.toml ("cannot have both `pyright`
        # and `basedpyright` sections"), so it would run without our stubs and your settings.
        raise TypingLiteralStringError(
            f"{where} cannot hold both [tool.pyright] and [tool.basedpyright]: "
            "basedpyright then ignores the file. Configure one of them here (pyright's "
            "settings can go in pyrightconfig.json)"
        )
    if conflicts and not force:
        raise TypingLiteralStringError(
            f"{where} already has other values: "
            + "; ".join(conflicts)
            + ". Rerun with --force to replace them (a search path keeps your entries after "
            "ours)."
        )
    return changes


def _last(value: object) -> object:
    """The table to append: an array of tables' value holds the user's tables before ours."""
    return cast("list[object]", value)[-1] if isinstance(value, list) else value


def _ini_section(value: object) -> str:
    """The INI section of a ``[[tool.mypy.overrides]]`` table: ``mypy-<module>,<module>``."""
    table = cast("dict[str, object]", _last(value))
    return "mypy-" + ",".join(cast("list[str]", table["module"]))


def _ini_edit(change: Change) -> IniEdit:
    setting = change.setting
    if setting.merge == APPEND_TABLE:
        return IniEdit(_ini_section(setting.value), "ignore_errors", ("True",))
    value = setting.value
    separators = ",:" if setting.key == "mypy_path" else ","
    if isinstance(value, list):
        items = tuple(str(v) for v in cast("list[object]", value))
    else:
        items = tuple(split_items(str(value), separators))
    return IniEdit("mypy", setting.key, items, setting.merge, separators)


def edited(target: Target, text: str, changes: list[Change]) -> str:
    """``text``, ``target``'s file (normalised: config_text.py), with the needed changes
    made in its own format, everything else kept; NotEditableError when that cannot be done
    without changing another value."""
    needed = [c for c in changes if c.needed]
    if target.kind == INI:
        from typing_literalstring.core.ini_edit import apply_ini_edits

        return apply_ini_edits(text, [_ini_edit(c) for c in needed], target.name)
    if target.kind == JSON:
        from typing_literalstring.core.jsonc_edit import set_top_level

        for change in needed:
            text = set_top_level(text, change.setting.key, change.setting.value, target.name)
        return text
    from typing_literalstring.core.pyproject_edit import Edit, apply_edits

    skip = 0 if target.kind == PYPROJECT else 2  # ty.toml is [tool.ty] without its header
    edits = [
        Edit(
            c.setting.table[skip:], c.setting.key, c.setting.value, c.setting.merge == APPEND_TABLE
        )
        for c in needed
    ]
    return apply_edits(text, edits, target.name)


def instructions(target: Target, changes: list[Change]) -> str:
    """What to add to ``target``'s file by hand, in its format (for a refused edit)."""
    needed = [c for c in changes if c.needed]
    if target.kind == JSON:
        import json

        members = [f"  {json.dumps(c.setting.key)}: {json.dumps(c.setting.value)}" for c in needed]
        return "in its top-level object:\n" + ",\n".join(members)
    if target.kind == INI:
        sections: dict[str, list[str]] = {}
        for change in needed:
            edit = _ini_edit(change)
            sections.setdefault(edit.section, []).append(f"{edit.key} = {', '.join(edit.items)}")
        return "\n\n".join(f"[{name}]\n" + "\n".join(keys) for name, keys in sections.items())
    from typing_literalstring.core.pyproject_edit import Edit, render_tables

    skip = 0 if target.kind == PYPROJECT else 2
    edits = [
        Edit(
            c.setting.table[skip:], c.setting.key, c.setting.value, c.setting.merge == APPEND_TABLE
        )
        for c in needed
    ]
    return render_tables(edits)
