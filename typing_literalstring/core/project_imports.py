"""The top-level modules a project's own files import, read with ``ast``: the project's code is
parsed, never imported or run."""

from __future__ import annotations

import ast
from pathlib import Path

from typing_literalstring.core.project_files import python_files
from typing_literalstring.specs.installed import imported_names


def imported_top_levels(root: Path) -> set[str]:
    """The top-level names the ``.py`` files under ``root`` import absolutely (``import a.b``,
    ``from a.b import c``: ``a``), in any scope, ``if TYPE_CHECKING:`` blocks included.  A
    file this Python cannot parse (newer grammar) is read line by line instead, which may name
    a package more: that costs a copy, never a missed sink."""
    names: set[str] = set()
    for path in python_files([root]):
        try:
            tree = ast.parse(path.read_bytes(), filename=str(path))
        except (OSError, SyntaxError, ValueError):
            names |= imported_names([path])
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names
