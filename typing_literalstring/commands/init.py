"""``init``: write the overlays into the project and wire them into the checkers' configuration.

Each checker gets an overlay built from its own typeshed in ``<dir>/<checker>``, and the
settings that make it load the overlay, written into the file that checker reads
(config_files.py: a ``mypy.ini`` wins over ``[tool.mypy]``, a ``pyrightconfig.json`` over
``[tool.pyright]``; settings written where the checker does not look load nothing, and plain
mypy or pyright then pass: issue 43).  Comments, layout, line endings and every other setting of
that file are kept (init_settings.py); a setting that already holds another value is refused
unless forced (lists the user's entries can live beside ours in are merged instead); running it
twice changes nothing.  Everything is checked before anything is written, and each file is
replaced in one step, keeping its mode.  Nothing is written through a symbolic link that leads
out of the project (safe_write.py): a cloned repository can hold any link.

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
run init again (``doctor`` fails when the folder is missing, out of date, or changed since).
"""

from __future__ import annotations

import argparse
import types
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from typing_literalstring.checkers import Checker, get_checker
from typing_literalstring.commands import EXIT_OK, config_files, init_folder
from typing_literalstring.commands.check import UsageError
from typing_literalstring.commands.config_files import JSON, PYPROJECT, Target
from typing_literalstring.commands.init_settings import (
    CHECK_UNTYPED_DEFS,
    Change,
    Setting,
    edited,
    instructions,
    plan,
    pyrefly_as_before,
    settings_for,
)
from typing_literalstring.core.config_text import ConfigText, NotEditableError, read_config
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.core.project import choose_environment, find_root
from typing_literalstring.core.project_imports import imported_top_levels
from typing_literalstring.core.safe_write import checked_target, write_text_atomically
from typing_literalstring.specs import thirdparty

DEFAULT_FOLDER = ".typing-literalstring/stubs"


def _tomlkit() -> types.ModuleType:
    try:
        import tomlkit
    except ImportError:
        raise TypingLiteralStringError(
            "init edits TOML files with tomlkit, which is not installed: "
            "pip install 'typing-literalstring[init]'"
        ) from None
    return tomlkit


@dataclass(frozen=True)
class FileChanges:
    """What init sets in one configuration file, and that file's new text."""

    target: Target
    changes: list[Change]
    text: ConfigText
    new_text: str  # with the file's own line endings and byte order mark

    @property
    def writes(self) -> bool:
        return any(change.needed for change in self.changes)


@dataclass(frozen=True)
class InitResult:
    project: Path
    overlays: list[Path]
    files: list[FileChanges]
    # The third-party packages of the project's environment, tightened in each overlay or not.
    third_party: list[thirdparty.Coverage]


def _refusal(target: Target, settings: list[Setting], why: str) -> TypingLiteralStringError:
    """Why ``target``'s file cannot be edited, and what to add to it by hand."""
    changes = plan({}, settings, True, target)
    return TypingLiteralStringError(
        f"{why}. Nothing was written. {target.path} is the file "
        f"{', '.join(sorted({s.table[1] for s in settings}))} reads"
        + (f" ({target.why})" if target.why else "")
        + f"; add this to it yourself, then rerun init:\n{instructions(target, changes)}"
    )


def _file_changes(
    project: Path, target: Target, settings: list[Setting], force: bool
) -> FileChanges:
    """The changes init makes to ``target``'s file, refused (nothing written) when a setting
    would replace a value of the user's or the file cannot be edited without changing others."""
    if target.kind in (PYPROJECT, config_files.TOML):
        _tomlkit()  # says how to install it when missing
    try:
        text = read_config(target.path)
        values = config_files.parse_values(target, text.text)
    except NotEditableError as error:
        raise _refusal(target, settings, str(error)) from error
    except ValueError as error:  # TOML or JSON that does not parse
        raise _refusal(target, settings, f"cannot read {target.path}: {error}") from error
    if target.kind == PYPROJECT:
        settings = [*settings, *pyrefly_as_before(project, values, settings)]
    changes = plan(values, settings, force, target)
    if not any(change.needed for change in changes):
        return FileChanges(target, changes, text, text.original)
    try:
        new_text = text.restore(edited(target, text.text, changes))
    except NotEditableError as error:
        raise _refusal(target, settings, str(error)) from error
    return FileChanges(target, changes, text, new_text)


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
    project = find_root(start)
    # Each checker's settings go into the file it reads (config_files.py).
    targets = {name: config_files.target(name, project) for name in names}
    if all(n in targets and targets[n].kind == JSON for n in init_folder.PYRIGHTS):
        raise TypingLiteralStringError(
            "pyright and basedpyright both read pyrightconfig.json, which holds one stubPath: "
            "run init for one of them"
        )
    grouped: dict[Path, tuple[Target, list[Setting]]] = {}
    for name in names:
        entry = grouped.setdefault(targets[name].path, (targets[name], []))
        entry[1].extend(settings_for(name, folder))
    files = [_file_changes(project, t, settings, force) for t, settings in grouped.values()]
    # Where each write lands, checked before the first one (the third-party cache included):
    # a link in the project that leads outside it is refused, and then nothing has changed.
    # An overlay folder is replaced whole, so a link in its place is replaced, not followed.
    overlays = [project / folder / checker.name for checker in checkers]
    outs = [checked_target(project, out, follow_target=False) for out in overlays]
    real_files = [checked_target(project, f.target.path) if f.writes else None for f in files]
    real_folder = checked_target(project, project / folder)
    # Only the packages the project's files import (and what those require) are copied: every
    # tightenable package of the environment made 17 MB for a two-file app.
    imports = imported_top_levels(project)
    environment = choose_environment(python, project).python
    coverage = thirdparty.build(environment, profile, cache_dir, imports)
    try:
        init_folder.write_ignore(real_folder)
        records = [
            init_folder.build_for(checker, out, profile, coverage)
            for checker, out in zip(checkers, outs)
        ]
        init_folder.write_record(real_folder, records)
    except OSError as error:
        raise TypingLiteralStringError(f"cannot write {project / folder}: {error}") from error
    for file, real in zip(files, real_files):
        if real is None:
            continue
        try:
            write_text_atomically(real, file.new_text, prefix=f".{real.name}.", newline="")
        except OSError as error:
            raise TypingLiteralStringError(f"cannot write {file.target.path}: {error}") from error
    return InitResult(project, overlays, files, coverage)


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
    for file in result.files:
        for change in file.changes:
            setting = change.setting
            state = "set" if change.needed else "already set"
            print(f"{state} {setting.describe(file.target)} in {file.target.path}")
            if setting.table == ("tool", "pyrefly") and setting.value == "basic" and change.needed:
                print(
                    "  (pyrefly's own preset when it has no configuration: without it, pyrefly "
                    "would import the tables above as its configuration and check more strictly)"
                )
        if file.target.why:  # why this file, when it is not the usual pyproject.toml
            print(f"  ({file.target.why})")
    if "mypy" in names and not init_folder.checks_untyped_bodies(result.project):
        mypy = config_files.target("mypy", result.project)
        where = config_files.table_label(mypy, ("tool", "mypy"))
        where += "" if mypy.kind == PYPROJECT else f" of {mypy.name}"
        print(
            f"mypy does not check the bodies of unannotated functions ({CHECK_UNTYPED_DEFS} is "
            "off), so the sinks called in them go unchecked (Django's `def handle(self, *args, "
            f"**options)`). init leaves it off: `{CHECK_UNTYPED_DEFS} = true` in {where} "
            "checks them, and also reports your own type errors there (django-extensions: 57 "
            "mypy errors became 536; pyrefly, which reads [tool.mypy], 48 became 308)"
        )
    return EXIT_OK
