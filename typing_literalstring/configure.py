"""``init``: write the overlays into the project and wire them into pyproject.toml.

Each checker gets an overlay built from its own typeshed in ``<dir>/<checker>``, and the one
setting that makes it load the overlay.  Comments and every other setting of pyproject.toml are
kept; a setting that already holds another value is refused unless forced; running it twice
changes nothing.  Everything is checked before anything is written, and pyproject.toml is
replaced in one step.
"""

from __future__ import annotations

import os
import tempfile
import types
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, MutableMapping, cast

from .checkers import Checker
from .errors import TypingLiteralStringError
from .overlay import build_overlay

if TYPE_CHECKING:
    from tomlkit import TOMLDocument


MYPY_PLUGIN = "typing_literalstring.mypy"


@dataclass(frozen=True)
class Setting:
    table: tuple[str, ...]  # e.g. ("tool", "pyright")
    key: str
    value: Any
    # A list setting whose items are added to the list already there (mypy's plugins).
    merge: bool = False

    def merged(self, previous: object) -> object:
        """The value to write over ``previous``; None when the two cannot be merged."""
        if not self.merge or previous is None:
            return self.value
        if isinstance(previous, str):  # mypy also reads "a, b"
            previous = [p.strip() for p in previous.split(",") if p.strip()]
        if not isinstance(previous, list):
            return None
        items = cast("list[object]", previous)  # pyright: ignore[reportUnnecessaryCast]
        return [*items, *(v for v in self.value if v not in items)]

    def describe(self) -> str:
        return f"[{'.'.join(self.table)}] {self.key} = {self.value!r}"


def settings_for(checker: str, folder: str) -> list[Setting]:
    """What makes ``checker`` load the overlay in ``folder`` (relative to pyproject.toml)."""
    if checker in ("pyright", "basedpyright"):
        return [Setting(("tool", checker), "stubPath", folder)]
    if checker in ("mypy", "zuban"):
        # mypy resolves mypy_path against the working folder unless told otherwise.
        path = Setting(("tool", "mypy"), "mypy_path", f"$MYPY_CONFIG_FILE_DIR/{folder}")
        if checker == "zuban":
            return [path]
        # mypy enforces LiteralString only with our plugin.
        return [path, Setting(("tool", "mypy"), "plugins", [MYPY_PLUGIN], merge=True)]
    if checker == "ty":
        return [Setting(("tool", "ty", "environment"), "extra-paths", [folder])]
    if checker == "pyrefly":
        return [
            Setting(("tool", "pyrefly"), "typeshed-path", folder),
            # Without a preset pyrefly's lenient default reports no LiteralString error.
            Setting(("tool", "pyrefly"), "preset", "default"),
        ]
    raise TypingLiteralStringError(f"init does not know how to configure {checker}")


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


def plan(document: TOMLDocument, settings: list[Setting], force: bool) -> list[Change]:
    values = document.unwrap()
    changes: list[Change] = []
    conflicts: list[str] = []
    for setting in settings:
        previous = _lookup(values, setting)
        merged = setting.merged(previous)
        change = Change(
            replace(setting, value=setting.value if merged is None else merged), previous
        )
        changes.append(change)
        if change.needed and previous is not None and (merged is None or not setting.merge):
            conflicts.append(f"{setting.describe()} would replace {previous!r}")
    if conflicts and not force:
        raise TypingLiteralStringError(
            "pyproject.toml already has other values: "
            + "; ".join(conflicts)
            + ". Rerun with --force to replace them."
        )
    return changes


def apply(document: TOMLDocument, changes: list[Change]) -> None:
    tomlkit = _tomlkit()
    for change in changes:
        if not change.needed:
            continue
        table: MutableMapping[str, object] = document
        for name in change.setting.table:
            if name not in table:
                table[name] = tomlkit.table(is_super_table=name == "tool")
            inner = table[name]
            assert isinstance(inner, MutableMapping)
            table = cast("MutableMapping[str, object]", inner)
        table[change.setting.key] = change.setting.value


def _write_atomically(path: Path, text: str) -> None:
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class InitResult:
    overlays: list[Path]
    changes: list[Change]
    pyproject: Path


def init(
    project: Path,
    checkers: list[Checker],
    *,
    folder: str = "typings-literalstring",
    profile: str = "default",
    force: bool = False,
) -> InitResult:
    names = [c.name for c in checkers]
    if "mypy" in names and "zuban" in names:
        raise TypingLiteralStringError(
            "mypy and zuban both read [tool.mypy] mypy_path: run init for one of them"
        )
    tomlkit = _tomlkit()
    pyproject = project / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8") if pyproject.exists() else ""
        document = tomlkit.parse(text)
    except (OSError, ValueError) as error:
        raise TypingLiteralStringError(f"cannot read {pyproject}: {error}") from error
    settings = [s for c in checkers for s in settings_for(c.name, f"{folder}/{c.name}")]
    changes = plan(document, settings, force)  # refuses before anything is written
    overlays: list[Path] = []
    for checker in checkers:
        layout = "full" if checker.needs_full_typeshed else "overlay"
        out = project / folder / checker.name
        try:
            build_overlay(checker.overlay_base(), out, profile=profile, layout=layout)
        except OSError as error:
            raise TypingLiteralStringError(f"cannot write {out}: {error}") from error
        overlays.append(out)
    if any(change.needed for change in changes):
        apply(document, changes)
        try:
            _write_atomically(pyproject, tomlkit.dumps(document))
        except OSError as error:
            raise TypingLiteralStringError(f"cannot write {pyproject}: {error}") from error
    return InitResult(overlays, changes, pyproject)
