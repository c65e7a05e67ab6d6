"""Which files of a project are checked: the walk of its folders, what it skips and why, and
the folders it could not list.

Nothing is left out without a word.  Hidden folders (``.git``, ``.venv``, the folder ``init``
writes) and ``__pycache__`` hold no source of the project and are skipped quietly, as the docs
say.  Every other folder skipped is named in the report with its reason: a virtual environment
(``pyvenv.cfg``), installed packages (``site-packages``, a name that cannot be imported, so it
holds no package of the project), JavaScript packages (``node_modules``), and build output: a
folder named ``build`` or ``dist`` that holds no ``.py`` file of its own (``build/lib/...``,
``dist/*.whl``).  A ``build`` or ``dist`` folder with a ``.py`` file at its top is code of the
project (the package ``src/build/``, ``myapp/dist/__init__.py``, build scripts) and is checked.

A folder that cannot be listed (no permission: a database's data folder, a volume owned by
another user) is skipped and reported, never the end of the run: every other file is checked.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

# Why a folder was skipped, by the key the JSON output uses, and how the text says it.
ENVIRONMENT = "environment"
BUILD_OUTPUT = "build-output"
INSTALLED = "installed-packages"
JAVASCRIPT = "node-modules"
REASONS = {
    ENVIRONMENT: "a virtual environment (pyvenv.cfg)",
    BUILD_OUTPUT: "build output: a build or dist folder with no .py file of its own",
    INSTALLED: "installed packages",
    JAVASCRIPT: "JavaScript packages",
}
# Skipped wherever they are: their names say what they hold.
_BY_NAME = {"site-packages": INSTALLED, "node_modules": JAVASCRIPT}
# Skipped where they hold no .py file of their own: build output, not a package.
BUILD_NAMES = ("build", "dist")

# Whether a file or folder is excluded by the configuration (``exclude``): it is neither
# listed nor, for a folder, entered.
Excluded = Optional[Callable[[Path], bool]]


@dataclass(frozen=True)
class Skipped:
    path: Path
    reason: str  # a key of REASONS


@dataclass(frozen=True)
class Unlisted:
    """A folder whose entries could not be read: nothing below it was checked."""

    path: Path
    error: str  # the system's words: "Permission denied"

    @property
    def why(self) -> str:
        return (
            f"the folder cannot be listed ({self.error}), so no file below it was checked: "
            "give this user permission to read it, or leave it out with exclude in "
            "[tool.typing-literalstring] (docs/configuration.md)"
        )


@dataclass
class Listing:
    files: list[Path] = field(default_factory=lambda: [])
    skipped: list[Skipped] = field(default_factory=lambda: [])
    unlisted: list[Unlisted] = field(default_factory=lambda: [])
    excluded_files: int = 0
    excluded_folders: int = 0


def is_environment(folder: Path) -> bool:
    """A virtual environment: it holds ``pyvenv.cfg``."""
    return _is_file(folder / "pyvenv.cfg")


def _is_file(path: Path) -> bool:
    # Path.is_file lets PermissionError through (a folder without the search permission).
    try:
        return path.is_file()
    except OSError:
        return False


def _holds_python(folder: Path) -> bool:
    """Whether ``folder`` has a ``.py`` file at its top (a package, a module, a script).  One
    that cannot be listed counts as build output, as every such folder was before."""
    try:
        with os.scandir(folder) as entries:
            return any(e.name.endswith(".py") and e.is_file() for e in entries)
    except OSError:
        return False


def skipped_because(folder: Path) -> str | None:
    """Why the walk does not enter ``folder`` and says so (a key of REASONS), or None."""
    name = folder.name
    if name in _BY_NAME:
        return _BY_NAME[name]
    if is_environment(folder):
        return ENVIRONMENT
    if name in BUILD_NAMES and not _holds_python(folder):
        return BUILD_OUTPUT
    return None


def _quiet(name: str) -> bool:
    """Folders skipped without a word: hidden ones and bytecode, which hold no source."""
    return name.startswith(".") or name == "__pycache__"


def list_files(paths: Sequence[Path], excluded: Excluded = None) -> Listing:
    """The .py files under ``paths`` (a file given is taken as it is), with the folders left
    out and why.  A folder given is entered whatever its name: naming ``build/`` checks it."""
    listing = Listing()

    def unlisted(error: OSError) -> None:
        folder = Path(error.filename) if error.filename else Path()
        listing.unlisted.append(Unlisted(folder, error.strerror or str(error)))

    for path in paths:
        if _is_file(path):
            if excluded is not None and excluded(path):
                listing.excluded_files += 1
            else:
                listing.files.append(path)
            continue
        for folder, dirs, names in os.walk(path, onerror=unlisted):
            here = Path(folder)
            entered: list[str] = []
            for name in sorted(dirs):
                child = here / name
                if _quiet(name):
                    continue
                if excluded is not None and excluded(child):
                    listing.excluded_folders += 1
                    continue
                reason = skipped_because(child)
                if reason is None:
                    entered.append(name)
                else:
                    listing.skipped.append(Skipped(child, reason))
            dirs[:] = entered
            for name in sorted(names):
                if not name.endswith(".py"):
                    continue
                if excluded is not None and excluded(here / name):
                    listing.excluded_files += 1
                else:
                    listing.files.append(here / name)
    return listing


def python_files(paths: Sequence[Path]) -> list[Path]:
    """The .py files under ``paths`` (``list_files`` without its account of what it left
    out): for the callers that only read the project's imports."""
    return list_files(paths).files
