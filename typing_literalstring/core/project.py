"""The project being checked: its root, the Python environment its imports resolve in, its files.

``check`` and ``init`` must see a project as its own tools do: the same root from any folder
inside it, the project's virtual environment rather than the one this tool is installed in
(pipx, a pre-commit hook), and never the project's virtual environments or build output as code
(which files are checked: ``project_files``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from typing_literalstring.core import interpreter
from typing_literalstring.core.errors import TypingLiteralStringError

# What marks a project's root, nearest first.
ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


class ProjectError(TypingLiteralStringError):
    """The project, its environment or its files cannot be used as given."""


def find_root(start: Path) -> Path:
    """The nearest folder from ``start`` upwards holding a root marker; ``start`` if none."""
    start = start.resolve()
    folder = start if start.is_dir() else start.parent
    for candidate in (folder, *folder.parents):
        if any((candidate / marker).exists() for marker in ROOT_MARKERS):
            return candidate
    return folder


def common_root(paths: Sequence[Path], cwd: Path) -> Path:
    """The root of the first path given (or of ``cwd``): all paths are checked against it."""
    return find_root(paths[0] if paths else cwd)


def search_paths(root: Path) -> list[Path]:
    """Where the project's own modules are imported from: the root, and ``src/`` if present."""
    return [root, *([root / "src"] if (root / "src").is_dir() else [])]


@dataclass(frozen=True)
class Environment:
    python: Path  # the interpreter whose site-packages resolve third-party imports
    source: str  # how it was chosen, said in the report

    def describe(self) -> str:
        return f"{self.python} ({self.source})"


def _interpreter_in(venv: Path) -> Path | None:
    for candidate in (venv / "bin" / "python", venv / "Scripts" / "python.exe"):
        if candidate.is_file():
            return candidate
    return None


def choose_environment(
    python: str | None, root: Path, environ: Mapping[str, str] | None = None
) -> Environment:
    """``--python``, else ``$VIRTUAL_ENV``, else ``.venv``/``venv`` in the root, else ours.

    The interpreter chosen is started once, here (``interpreter.ask``): what the check and its
    checker need to know of it is asked at once and kept for the check, so it is not started
    again."""
    environ = os.environ if environ is None else environ
    chosen = _choose(python, root, environ)
    interpreter.ask(chosen.python, chosen.source)
    return chosen


def _choose(python: str | None, root: Path, environ: Mapping[str, str]) -> Environment:
    if python is not None:
        # Absolute: the interpreter is started in a folder outside the project, where a
        # relative `--python .venv` would name nothing (pre-commit's shared configuration).
        given = Path(python).absolute()
        found = _interpreter_in(given) if given.is_dir() else given
        if found is None or not found.is_file():
            raise ProjectError(
                f"--python {python}: no such interpreter; give the path of the project's Python "
                "(for example .venv/bin/python) or of its virtual environment"
            )
        return Environment(found.absolute(), "--python")
    virtual_env = environ.get("VIRTUAL_ENV")
    if virtual_env:
        found = _interpreter_in(Path(virtual_env))
        if found is None:
            raise ProjectError(
                f"$VIRTUAL_ENV is {virtual_env} but holds no Python interpreter: activate an "
                "existing environment, unset VIRTUAL_ENV, or pass --python"
            )
        return Environment(found.absolute(), "$VIRTUAL_ENV")
    for name in (".venv", "venv"):
        found = _interpreter_in(root / name)
        if found is not None:
            return Environment(found.absolute(), f"{name} in the project root")
    return Environment(Path(sys.executable), "the interpreter running typing-literalstring")


def module_name(path: Path, roots: Sequence[Path]) -> str | None:
    """The dotted module name of ``path`` under the first of ``roots`` that holds it."""
    resolved = path.resolve()
    for root in reversed(sorted(roots, key=lambda r: len(r.parts))):
        try:
            relative = resolved.relative_to(root)
        except ValueError:
            continue
        parts = list(relative.with_suffix("").parts)
        if parts and parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts) if parts else None
    return None


def root_relative(path: str, root: Path) -> str:
    """``path`` relative to the project root with forward slashes (the full path when it is
    outside): how the baseline records a file and SARIF names it."""
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(path).resolve().as_posix()
