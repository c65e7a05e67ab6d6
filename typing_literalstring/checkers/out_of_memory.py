"""A checker out of memory: how each runtime says so, and the error that names the largest
files with the way out (``commands.memory`` checks the rest without them)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from typing_literalstring.core.errors import CheckerFailedError

if TYPE_CHECKING:
    from typing_literalstring.checkers.base import Checker

# What a checker's runtime prints when it runs out of memory: node's (pyright, basedpyright:
# "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", then
# SIGABRT), Rust's allocator (ty, zuban, pyrefly: "memory allocation of 3145728 bytes
# failed", then SIGABRT), Python's (mypy's traceback).  The kernel's out-of-memory killer
# sends SIGKILL and says nothing.
OUT_OF_MEMORY = re.compile(
    r"JavaScript heap out of memory|memory allocation of \d+ bytes failed|^MemoryError\b", re.M
)
# How many of the largest files an out-of-memory error names.
_NAMED = 5


class CheckerOutOfMemoryError(CheckerFailedError):
    """A checker ran out of memory (it said so), or was killed by SIGKILL (perhaps by the
    kernel's out-of-memory killer) on ``files``.  ``naming`` says it of other files: the ones
    the user gave, where the checker was given copies."""

    def __init__(
        self,
        checker: Checker,
        files: Sequence[Path],
        *,
        said: bool,
        left_out: Sequence[Path] = (),
    ) -> None:
        self.checker = checker
        self.said = said  # it said so; else it was killed by SIGKILL
        super().__init__(self.naming(files, left_out))

    @property
    def what(self) -> str:
        name = self.checker.name
        if self.said:
            return f"{name} ran out of memory"
        return f"{name} was killed (SIGKILL), perhaps out of memory"

    def naming(self, files: Sequence[Path], left_out: Sequence[Path] = ()) -> str:
        """The message, about ``files``; ``left_out``: it ran out again without those."""
        name = self.checker.name
        largest = largest_first(files)
        shown = ", ".join(f"{shown_path(f)} ({size_of(f)})" for f in largest[:_NAMED])
        without = (
            f" (and again without the largest, {', '.join(shown_path(f) for f in left_out)})"
            if left_out
            else ""
        )
        count = f"{len(files)} file{'' if len(files) == 1 else 's'}"
        return (
            f"{self.what} checking {count}{without}; the largest: {shown}.  "
            "Generated code and data are the usual cause: leave such files out with `exclude` "
            "in the [tool.typing-literalstring] table of pyproject.toml, check fewer files at a "
            f"time, or give {name} more memory{self.checker.memory_hint}"
        )


def largest_first(files: Sequence[Path]) -> list[Path]:
    """The files (not folders) from the largest to the smallest."""
    sized = [(file_size(f), str(f), f) for f in files]
    return [f for size, _, f in sorted(sized, key=lambda s: (-s[0], s[1])) if size >= 0]


def file_size(path: Path) -> int:
    """Its size in bytes; -1 for a folder, or a file that is gone."""
    try:
        return path.stat().st_size if path.is_file() else -1
    except OSError:
        return -1


def size_of(path: Path) -> str:
    size = max(file_size(path), 0)
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB"


def shown_path(path: Path) -> str:
    """``path`` from the working folder when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)
