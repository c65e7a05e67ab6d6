"""The checker runs of one check: the same checker, target and environment each time, and the
errors of a run keyed alike."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence, Tuple

from typing_literalstring.analysis.reveal import build_mirror
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
    seconds: list[float] = field(default_factory=lambda: [])  # each run's wall time, the same
    # Called as each checker process starts (``Checker.run``'s ``started``).
    on_start: Callable[[], None] | None = None

    def run(
        self,
        files: Iterable[str],
        name: str,
        extra_paths: Sequence[Path],
        overlay: Path | None,
        *,
        stock: bool = False,
        shadows: Mapping[Path, Path] | None = None,
    ) -> RunResult:
        """One run of the checker; ``stock``: without the tightened third-party packages
        (the comparison run on the untightened stubs); ``shadows``: see ``Checker.run``."""
        if not stock:
            extra_paths = [*extra_paths, *self.third_party]
        files = sorted(files)
        self.started.append((name, len(files)))
        kept: Path | None = None
        if self.incremental is not None:
            cache_dir, root = self.incremental
            key = [self.checker.name, self.checker.version(), str(root), name, str(overlay)]
            key += [str(self.environment.python), str(self.python_version), str(self.platform)]
            # Folders of this run's own (the probe's stub) differ from run to run: named by
            # their place in it, so that the cache is found again.
            key += [
                f"<run>/{p.relative_to(self.workdir)}" if inside(p, self.workdir) else str(p)
                for p in extra_paths
            ]
            kept = incremental_cache(cache_dir, *key)
        began = time.perf_counter()
        try:
            return self._run(files, name, extra_paths, overlay, kept, shadows)
        finally:
            self.seconds.append(time.perf_counter() - began)

    def _run(
        self,
        files: list[str],
        name: str,
        extra_paths: Sequence[Path],
        overlay: Path | None,
        kept: Path | None,
        shadows: Mapping[Path, Path] | None,
    ) -> RunResult:
        return self.checker.run(
            [Path(f) for f in files],
            python_version=self.python_version,
            overlay=overlay,
            workdir=self.workdir / name,
            extra_paths=extra_paths,
            python=self.environment.python,
            platform=self.platform,
            incremental_cache=kept,
            shadows=shadows,
            started=self.on_start,
        )

    def run_in_place(
        self,
        files: Iterable[str],
        name: str,
        search: Sequence[Path],
        extra_paths: Sequence[Path],
        overlay: Path | None,
        root: Path,
        copies: Mapping[str, str],
    ) -> RunResult:
        """One run in which each file of ``copies`` (its path -> the text to check) is checked
        as that text in its own place: same module, same imports, messages naming the file.

        mypy reads the copy as a shadow file.  The others check the copy inside a mirror of the
        project root (``reveal.build_mirror``: real folders down to the copy, links to the
        original for everything else), with the mirror in place of the root on the search path
        (``search``: the project's own folders); their messages are renamed back.
        """
        if not copies:
            return self.run(files, name, [*search, *extra_paths], overlay)
        if self.checker.reads_shadow_files:
            shadows: dict[Path, Path] = {}
            for number, (path, text) in enumerate(sorted(copies.items())):
                copy = self.workdir / f"{name}-copies" / str(number) / Path(path).name
                copy.parent.mkdir(parents=True, exist_ok=True)  # the second run, too
                copy.write_text(text, encoding="utf-8")
                shadows[Path(path)] = copy
            return self.run(files, name, [*search, *extra_paths], overlay, shadows=shadows)
        mirror = self.workdir / f"{name}-mirror"
        originals = build_mirror(root, {Path(p): text for p, text in copies.items()}, mirror)
        instead = {str(original): copy for copy, original in originals.items()}
        mirrored = [mirror / p.relative_to(root) if inside(p, root) else p for p in search]
        result = self.run(
            [instead.get(f, f) for f in files], name, [*mirrored, *extra_paths], overlay
        )
        renamed = [
            replace(d, path=str(originals[d.path])) if d.path in originals else d
            for d in result.diagnostics
        ]
        return replace(result, diagnostics=sorted(renamed))
