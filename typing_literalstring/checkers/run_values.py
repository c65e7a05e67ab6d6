"""One checker run's values: what it is given (``Invocation``, for one of the ``PLATFORMS``)
and what it gives back (``Diagnostic``, ``Refusal``, ``RunResult``), and the diagnostics read
from mypy-style lines (zuban's).  ``base``'s ``Checker`` runs a checker with these."""

from __future__ import annotations

import functools
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One message of a checker, with the position normalised (1-based line and column)."""

    path: str
    line: int
    column: int
    severity: str
    message: str
    code: str = ""


@dataclass(frozen=True)
class Refusal:
    """Why a checker refuses a file: a folder whose name it cannot use in a module name."""

    folder: Path
    module: str = ""  # when set: the file would become this top-level module, already taken


@dataclass(frozen=True)
class RunResult:
    diagnostics: list[Diagnostic]
    exit_code: int
    output: str


# The platforms `check --platform` offers, as `sys.platform` names them (pyright.py spells
# them its own way).
PLATFORMS = ("linux", "darwin", "win32")


@dataclass(frozen=True)
class Invocation:
    """One run of a checker, as the adapters see it (all paths absolute)."""

    files: Sequence[Path]
    python_version: str | None
    overlay: Path | None
    extra_paths: Sequence[Path]
    workdir: Path
    project: Path | None
    python: Path = Path(sys.executable)  # the environment whose packages resolve imports
    platform: str | None = None  # the sys.platform checked for; None: the checker's default
    # A folder kept from one check to the next for the checker's incremental cache (mypy's);
    # None: a fresh one in workdir.
    incremental_cache: Path | None = None
    # Files read from another file in their place (original -> copy), for a checker that
    # reads_shadow_files.
    shadows: Mapping[Path, Path] = field(default_factory=lambda: {})

    @property
    def cwd(self) -> Path:
        return self.project or self.workdir

    def search_path(self) -> str:
        """Overlay first, then the extra paths, as MYPYPATH wants them."""
        paths = [*([self.overlay] if self.overlay else []), *self.extra_paths]
        return os.pathsep.join(str(p) for p in paths)


@functools.lru_cache(maxsize=4096)
def absolute_path(path: str, cwd: Path) -> str:
    """Each file's path resolved once: a checker reports many errors per file."""
    return str((cwd / path).resolve())


_MYPY_STYLE_LINE = re.compile(
    r"^(?P<path>[^\n:]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning|note): "
    r"(?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


def mypy_style_diagnostics(
    stdout: str, cwd: Path, pattern: re.Pattern[str] = _MYPY_STYLE_LINE
) -> list[Diagnostic]:
    """The diagnostics of a checker that writes one per line as ``path:line:column: severity
    ...`` (mypy, zuban; ty's concise output with its own ``pattern``), each a match of
    ``pattern``'s named groups."""
    diagnostics: list[Diagnostic] = []
    for line in stdout.splitlines():
        match = pattern.match(line)
        if match is not None:
            diagnostics.append(
                Diagnostic(
                    path=absolute_path(match["path"], cwd),
                    line=int(match["line"]),
                    column=int(match["column"]),
                    severity=match["severity"],
                    message=match["message"],
                    code=match["code"] or "",
                )
            )
    return diagnostics
