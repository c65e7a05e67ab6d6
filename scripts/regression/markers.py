"""What a case file expects: `# E` and `# E?` markers, and the Python targets it applies to."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

# `# E` at the start of a comment, then the end, a space or a colon: not `# Example`.
_MARKER = re.compile(r"^#\s*E(?P<optional>\?)?(?=$|[\s:])")
# `check_x_py311.py` applies to Python 3.11 and newer only, as typeshed names such cases.
_MIN_TARGET = re.compile(r"_py3(?P<minor>\d+)(?:_|$)")


@dataclass(frozen=True)
class Markers:
    required: frozenset[int]  # lines marked `# E`: an error is required
    optional: frozenset[int]  # lines marked `# E?`: either outcome is allowed
    source: tuple[str, ...]  # the file's lines, to quote in records

    def code(self, line: int) -> str:
        """The code on ``line``, without its comment."""
        return self.source[line - 1].split("#", 1)[0].strip()


def read_markers(path: Path) -> Markers:
    text = path.read_text(encoding="utf-8")
    required: set[int] = set()
    optional: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            match = _MARKER.match(token.string)
            if match:
                (optional if match["optional"] else required).add(token.start[0])
    return Markers(frozenset(required), frozenset(optional), tuple(text.splitlines()))


def applies_to(path: Path, target: str) -> bool:
    """Whether the case file is meant for this Python target (see its name)."""
    match = _MIN_TARGET.search(path.stem)
    if match is None:
        return True
    return int(target.split(".")[1]) >= int(match["minor"])


def profile_of(path: Path) -> str:
    """Files named ``*_strict.py`` test the strict profile's overlay."""
    return "strict" if path.stem.endswith("_strict") else "default"
