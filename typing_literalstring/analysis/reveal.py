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
from pathlib import Path
from typing import Mapping, Sequence

from typing_literalstring.core.source_edits import apply_edits, wrapped


def wrap_callees(source: str, calls: Sequence[ast.Call]) -> str:
    """``f(x)`` becomes ``reveal_type(f)(x)``; no line moves, so line numbers still match."""
    edits = wrapped(source, [call.func for call in calls], b"reveal_type(")
    return apply_edits(source, edits)


def build_mirror(root: Path, texts: Mapping[Path, str], into: Path) -> dict[str, Path]:
    """Write ``texts`` (original path -> the copy's text) into a mirror of ``root``; copy path ->
    original path."""
    copies: dict[str, Path] = {}
    real_dirs: set[Path] = {into}
    for path, text in texts.items():
        relative = path.relative_to(root)
        copy = into / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(text, encoding="utf-8")
        copies[str(copy.resolve())] = path
        real_dirs.update(into / parent for parent in relative.parents)
    for folder in real_dirs:
        original = root / folder.relative_to(into)
        for entry in original.iterdir():
            target = folder / entry.name
            if not target.exists() and not target.is_symlink():
                os.symlink(entry, target, target_is_directory=entry.is_dir())
    return copies
