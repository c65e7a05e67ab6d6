"""The checker runs of one check: the same checker, target and environment each time, and the
errors of a run keyed alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence, Tuple

from typing_literalstring.checkers import (
    Checker,
    Diagnostic,
    RunResult,
)
from typing_literalstring.core.project import (
    Environment,
)
from typing_literalstring.specs.cache import incremental_cache


def errors_in(result: RunResult, files: set[str]) -> list[Diagnostic]:
    """The errors in the checked files (mypy also reports modules it followed)."""
    return [d for d in result.diagnostics if d.severity == "error" and d.path in files]


Key = Tuple[str, int, int, str]


def error_key(d: Diagnostic) -> Key:
    return (d.path, d.line, d.column, d.message)


def inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Runs:
    """How every checker run of one `check` is made: same checker, target and environment."""

    checker: Checker
    python_version: str | None
    environment: Environment
    workdir: Path
    platform: str | None = None
    third_party: tuple[Path, ...] = ()  # the tightened third-party packages (thirdparty.py)
    # Where the checker's incremental cache is kept between checks (cache.incremental_cache):
    # the user cache (--cache-dir) and the project root; None: a fresh cache per run.
    incremental: tuple[Path | None, Path] | None = None
    started: list[tuple[str, int]] = field(default_factory=lambda: [])  # shared by replace()

    def run(
        self,
        files: Iterable[str],
        name: str,
        extra_paths: Sequence[Path],
        overlay: Path | None,
        *,
        stock: bool = False,
    ) -> RunResult:
        """One run of the checker; ``stock``: without the tightened third-party packages
        (the comparison run on the untightened stubs)."""
        if not stock:
            extra_paths = [*extra_paths, *self.third_party]
        files = sorted(files)
        self.started.append((name, len(files)))
        kept: Path | None = None
        if self.incremental is not None:
            cache_dir, root = self.incremental
            key = [self.checker.name, self.checker.version(), str(root), name, str(overlay)]
            key += [str(self.environment.python), str(self.python_version), str(self.platform)]
            kept = incremental_cache(cache_dir, *key, *map(str, extra_paths))
        return self.checker.run(
            [Path(f) for f in sorted(files)],
            python_version=self.python_version,
            overlay=overlay,
            workdir=self.workdir / name,
            extra_paths=extra_paths,
            python=self.environment.python,
            platform=self.platform,
            incremental_cache=kept,
        )
