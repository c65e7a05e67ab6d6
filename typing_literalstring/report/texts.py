"""The checked files' lines and syntax trees as the outputs read them again after a check, and
the one conversion of ``ast``'s UTF-8 column offsets to characters."""

from __future__ import annotations

import ast
from pathlib import Path

from typing_literalstring.core import sources


class Texts:
    """The checked files' lines and syntax trees, each file read once (as it is now: the server
    checks again a file changed since its check)."""

    def __init__(self) -> None:
        self._files: dict[str, tuple[list[str], ast.Module | None]] = {}

    def read(self, path: str) -> tuple[list[str], ast.Module | None]:
        if path not in self._files:
            try:
                source, tree = sources.read(Path(path))
                self._files[path] = (sources.lines(source.text), tree)
            except (OSError, SyntaxError, ValueError):
                self._files[path] = ([], None)
        return self._files[path]

    def line(self, path: str, number: int) -> str:
        """Line ``number`` (1-based) of ``path``, "" past its end."""
        lines = self.read(path)[0]
        return lines[number - 1] if 0 < number <= len(lines) else ""


def characters(text: str, offset: int) -> int:
    """A UTF-8 byte offset of ``text`` (as ``ast`` gives columns) as a count of characters."""
    return len(text.encode("utf-8")[:offset].decode("utf-8", errors="ignore"))
