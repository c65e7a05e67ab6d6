"""Which overloaded callees take LiteralString, asked of the checker itself.

When no overload of a function matches, pyright, basedpyright and ty say only "No overloads
for execute"; the parameter types they tried are not in the message (pyright names the last
overload's, psycopg 3's ``Template``).  Whether a LiteralString parameter refused the argument
is in the callee's type, so the checker is asked: a copy of the file with the callee of each such
call wrapped in ``reveal_type(...)`` is checked, and a revealed type naming LiteralString makes
the error one about literal strings.

The copy must resolve its imports as the original does, relative imports included, so it is
checked inside a mirror of the project root: the folders leading to the copied files are real,
everything else in them is a symbolic link to the original.  Nothing in the project is written.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .source_edits import apply_edits, wrapped


@dataclass(frozen=True)
class RevealRequest:
    path: Path  # the original file, inside the root
    source: str
    calls: Sequence[ast.Call]


def wrap_callees(source: str, calls: Sequence[ast.Call]) -> str:
    """``f(x)`` becomes ``reveal_type(f)(x)``; no line moves, so line numbers still match."""
    edits = wrapped(source, [call.func for call in calls], b"reveal_type(")
    return apply_edits(source, edits)


def build_mirror(root: Path, requests: Sequence[RevealRequest], into: Path) -> dict[str, Path]:
    """Write the wrapped copies into a mirror of ``root``; copy path -> original path."""
    copies: dict[str, Path] = {}
    real_dirs: set[Path] = {into}
    for request in requests:
        relative = request.path.relative_to(root)
        copy = into / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(wrap_callees(request.source, request.calls), encoding="utf-8")
        copies[str(copy.resolve())] = request.path
        real_dirs.update(into / parent for parent in relative.parents)
    for folder in real_dirs:
        original = root / folder.relative_to(into)
        for entry in original.iterdir():
            target = folder / entry.name
            if not target.exists() and not target.is_symlink():
                os.symlink(entry, target, target_is_directory=entry.is_dir())
    return copies
