"""``init``: write the overlays into the project and wire them into pyproject.toml.

Each checker gets an overlay built from its own typeshed in ``<dir>/<checker>``, and the
settings that make it load the overlay.  Comments and every other setting of pyproject.toml are
kept; a setting that already holds another value is refused unless forced (lists the user's
entries can live beside ours in are merged instead); running it twice changes nothing.
Everything is checked before anything is written, and pyproject.toml is replaced in one step,
keeping its mode.  Nothing is written through a symbolic link that leads out of the project
(safe_write.py): a cloned repository can hold any link.

The overlays live in a hidden folder (``.typing-literalstring/stubs``) so that running a checker
on the whole project does not check them as the project's code, whichever checkers init was
told to configure: pyright, basedpyright, mypy, zuban and pyrefly skip hidden folders when they
collect files; ty does not, and skips what the folder's ``.ignore`` file names (init_folder.py);
mypy and zuban report errors in every stub found on their mypy_path, so the overlay's modules
get ``ignore_errors`` (measured for each checker: docs/init.md).

Each overlay also holds the tightened copies of the third-party packages the project's files
import (read with ``ast``; what those packages require counts too: Flask's templates are
Jinja2's), at its top: the folder each checker already searches first (pyrefly is told to
search it too).  They are copies of the installed versions: after an upgrade or a new import,
run init again (``doctor`` fails when the folder is missing or out of date).
"""

from __future__ import annotations

import argparse
import re
import types
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, cast

from typing_literalstring.checkers import (
    Checker,
    get_checker,
)
from typing_literalstring.commands import EXIT_OK, init_folder
from typing_literalstring.commands.check import UsageError
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.core.project import choose_environment, find_root
from typing_literalstring.core.project_imports import imported_top_levels
from typing_literalstring.core.safe_write import checked_target, write_text_atomically
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.overlay import build_overlay
from typing_literalstring.specs.stubspec import load_specs

if TYPE_CHECKING:
    from tomlkit import TOMLDocument


MYPY_PLUGIN = "typing_literalstring.mypy"
CHECK_UNTYPED_DEFS = "check_untyped_defs"
DEFAULT_FOLDER = ".typing-literalstring/stubs"

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

    def describe(self) -> str:
        if self.merge == APPEND_TABLE:
            return f"[[{'.'.join((*self.table, self.key))}]] {self.value!r}"
        return f"[{'.'.join(self.table)}] {self.key} = {self.value!r}"


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


def _pyrefly_as_before(
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


def _tomlkit() -> types.ModuleType:
    try:
        import tomlkit
    except ImportError:
        raise TypingLiteralStringError(
            "init edits pyproject.toml with tomlkit, which is not installed: "
            "pip install 'typing-literalstring[init]'"
        ) from None
    return tomlkit


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
    document: TOMLDocument, settings: list[Setting], force: bool, where: str = "pyproject.toml"
) -> list[Change]:
    values = document.unwrap()
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
            conflicts.append(f"{setting.describe()} would replace {previous!r}")
        elif setting.needs_force:
            conflicts.append(
                f"[{'.'.join(setting.table)}] {setting.key} = {previous!r} would become {merged!r}"
            )
    pyrights = {"pyright", "basedpyright"}
    tools = values.get("tool")
    ours = {c.setting.table[1] for c in changes if c.needed and c.setting.table[0] == "tool"}
    tables = {*(cast("dict[str, object]", tools) if isinstance(tools, dict) else {}), *ours}
    if pyrights & ours and pyrights <= tables:
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


def edited_text(text: str, changes: list[Change]) -> str:
    """``text`` (pyproject.toml) with the needed changes made, its layout kept
    (pyproject_edit.py)."""
    _tomlkit()  # says how to install it when missing
    from typing_literalstring.core.pyproject_edit import Edit, apply_edits

    edits = [
        Edit(c.setting.table, c.setting.key, c.setting.value, c.setting.merge == APPEND_TABLE)
        for c in changes
        if c.needed
    ]
    return apply_edits(text, edits)


def _write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` (a real file: see ``safe_write.checked_target``) in one step, keeping
    its mode."""
    write_text_atomically(path, text, prefix=f".{path.name}.", newline="")


@dataclass(frozen=True)
class InitResult:
    overlays: list[Path]
    changes: list[Change]
    pyproject: Path
    # The third-party packages of the project's environment, tightened in each overlay or not.
    third_party: list[thirdparty.Coverage]


def hidden_folder(folder: str) -> str:
    """``folder`` as init writes it in pyproject.toml, or why it cannot be used.

    It must be inside the project and hidden (one of its parts starts with a dot).  We refuse a
    visible folder rather than exclude it: pyright, basedpyright, mypy, zuban and pyrefly skip
    hidden folders when they collect the files to check, with no setting at all, while their
    excludes differ in kind and are easy to break (pyright's replaces its default excludes,
    mypy's is one regular expression, zuban ignores it for its mypy_path), and a later edit of
    the user's own excludes would quietly bring the overlays back as project code.
    """
    path = PurePosixPath(folder.replace("\\", "/"))
    if path.is_absolute() or not path.parts or ".." in path.parts or ":" in path.parts[0]:
        raise TypingLiteralStringError(
            f"--dir {folder!r} must be a folder inside the project, relative to its root"
        )
    if not any(part.startswith(".") for part in path.parts):
        raise TypingLiteralStringError(
            f"--dir {folder!r} is not a hidden folder: the checkers would check the stubs in it "
            f"as your code. Use a folder whose name starts with a dot, such as {DEFAULT_FOLDER}"
        )
    return str(path)


def init(
    start: Path,
    checkers: list[Checker],
    *,
    folder: str = DEFAULT_FOLDER,
    profile: str = "default",
    force: bool = False,
    python: str | None = None,
    cache_dir: Path | None = None,
) -> InitResult:
    """Configure the project whose root is the nearest from ``start`` upwards; ``python`` is
    its environment as ``check`` chooses it, whose third-party packages are tightened."""
    names = [c.name for c in checkers]
    if "mypy" in names and "zuban" in names:
        raise TypingLiteralStringError(
            "mypy and zuban both read [tool.mypy] mypy_path: run init for one of them"
        )
    folder = hidden_folder(folder)
    tomlkit = _tomlkit()
    project = find_root(start)
    pyproject = project / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8") if pyproject.exists() else ""
        document = tomlkit.parse(text)
    except (OSError, ValueError) as error:
        raise TypingLiteralStringError(f"cannot read {pyproject}: {error}") from error
    settings = [s for c in checkers for s in settings_for(c.name, folder)]
    settings += _pyrefly_as_before(project, document.unwrap(), settings)
    changes = plan(document, settings, force, str(pyproject))  # refuses before any write
    writes_pyproject = any(change.needed for change in changes)
    # Where each write lands, checked before the first one (the third-party cache included):
    # a link in the project that leads outside it is refused, and then nothing has changed.
    # An overlay folder is replaced whole, so a link in its place is replaced, not followed.
    overlays = [project / folder / checker.name for checker in checkers]
    targets = [checked_target(project, out, follow_target=False) for out in overlays]
    real_pyproject = checked_target(project, pyproject) if writes_pyproject else pyproject
    real_folder = checked_target(project, project / folder)
    new_text = edited_text(text, changes) if writes_pyproject else text  # refuses before writes
    # Only the packages the project's files import (and what those require) are copied: every
    # tightenable package of the environment made 17 MB for a two-file app.
    imports = imported_top_levels(project)
    environment = choose_environment(python, project).python
    coverage = thirdparty.build(environment, profile, cache_dir, imports)
    packages = [c.root for c in coverage if c.root is not None]
    built = {c.package: c.base for c in coverage if c.root is not None}
    try:
        init_folder.write_ignore(real_folder)
        for checker, target in zip(checkers, targets):
            layout = "full" if checker.needs_full_typeshed else "overlay"
            build_overlay(
                checker.overlay_base(), target, profile=profile, layout=layout, third_party=packages
            )
            if checker.name in init_folder.PYRIGHTS and layout == "overlay":
                init_folder.os_path_from_stdlib(target)
            init_folder.one_copy_per_package(target, checker.name, list(built))
        records = [init_folder.Built(c.name, c.version(), profile, built) for c in checkers]
        init_folder.write_record(real_folder, records)
    except OSError as error:
        raise TypingLiteralStringError(f"cannot write {project / folder}: {error}") from error
    if writes_pyproject:
        try:
            _write_atomically(real_pyproject, new_text)
        except OSError as error:
            raise TypingLiteralStringError(f"cannot write {pyproject}: {error}") from error
    return InitResult(overlays, changes, pyproject, coverage)


def command(args: argparse.Namespace) -> int:
    project = Path(args.project)
    if not project.is_dir():
        raise UsageError(f"no such project folder: {project}")
    names: list[str] = args.checker or ["pyright"]
    chosen = [get_checker(name) for name in dict.fromkeys(names)]
    for checker in chosen:
        if not checker.is_installed():
            checker.executable()  # raises with the install hint
    result = init(
        project,
        chosen,
        folder=args.dir,
        profile=args.profile,
        force=args.force,
        python=args.python,
        cache_dir=Path(args.cache_dir) if args.cache_dir else None,
    )
    for overlay in result.overlays:
        print(f"wrote the overlay {overlay}")
    for c in result.third_party:
        if c.covered:
            print(f"  with {c.package} tightened ({c.base})")
        elif c.why != thirdparty.NOT_INSTALLED:
            print(f"  without {c.package}: {c.why}")
    for change in result.changes:
        setting = change.setting
        state = "set" if change.needed else "already set"
        print(f"{state} {setting.describe()} in {result.pyproject}")
        if setting.table == ("tool", "pyrefly") and setting.value == "basic" and change.needed:
            print(
                "  (pyrefly's own preset when it has no configuration: without it, pyrefly "
                "would import the tables above as its configuration and check more strictly)"
            )
    if "mypy" in names and not init_folder.checks_untyped_bodies(result.pyproject.parent):
        print(
            f"mypy does not check the bodies of unannotated functions ({CHECK_UNTYPED_DEFS} is "
            "off), so the sinks called in them go unchecked (Django's `def handle(self, *args, "
            f"**options)`). init leaves it off: `{CHECK_UNTYPED_DEFS} = true` in [tool.mypy] "
            "checks them, and also reports your own type errors there (django-extensions: 57 "
            "mypy errors became 536; pyrefly, which reads [tool.mypy], 48 became 308)"
        )
    return EXIT_OK
