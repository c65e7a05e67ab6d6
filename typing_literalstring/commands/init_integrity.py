"""Whether an overlay folder still holds what ``init`` wrote (issue 43, item 2).

The overlays are committed with the project, and a checker loads whatever is in them: a pull
request that turns ``sql: LiteralString`` back into ``sql: str`` in
``.typing-literalstring/stubs/pyright/sqlite3/__init__.pyi`` silences every SQL finding of the
team's own pyright, while the probe ``doctor`` runs (``os.system(b"ls")``) still says the stubs
are loaded.  So ``init`` records a digest of every file of each overlay in ``init.json``, and
``doctor`` checks the folder twice:

* against those digests: every changed, missing or added file is named;
* against a fresh build of the same overlay (same checker and version, profile, third-party
  packages), made in a temporary folder: this also catches a change whose digests were
  updated in ``init.json`` to match.

Digests are taken with CRLF read as LF, so that a checkout made with ``core.autocrlf`` is not
mistaken for a changed one (line endings change no type).  The overlay's own manifest
(``typing-literalstring.json``), which no checker reads and which names the folder of the
typeshed it was built from on the machine that built it, is left out of the comparison with a
fresh build.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable, Mapping

from typing_literalstring import __version__
from typing_literalstring.commands import config_files
from typing_literalstring.commands.init_folder import (
    Built,
    differences,
    digest_tree,
    read_record,
    specs_digest,
)
from typing_literalstring.specs.overlay import MANIFEST


@dataclass(frozen=True)
class Now:
    """What init would build now, as doctor finds it."""

    versions: Mapping[str, str | None]  # checker -> its version (None: not installed)
    bases: Callable[[str], str]  # checker -> the typeshed its overlay is built from (Built.base)
    packages: Callable[[str], Mapping[str, str]]  # profile -> import name -> base, as init copies
    # Builds checker's overlay for profile into the folder given, as init would now; None:
    # no fresh build to compare with.
    rebuild: Callable[[str, str, Path], None] | None = None


@dataclass(frozen=True)
class Problem:
    checker: str
    text: str
    altered: bool = False  # files of the overlay differ from what init wrote


def folder_problems(project: Path, now: Now) -> list[Problem]:
    """Why the overlays the checkers' configuration points at are not what init would write
    now: missing, built by another version of typing-literalstring, of the checker, from
    another typeshed or other installed packages, or changed since init wrote them."""
    problems: list[Problem] = []
    for relative, source in config_files.configured(project, list(now.versions)):
        name = PurePosixPath(relative).name
        rerun = f"run `typing-literalstring init --checker {name}`"
        overlay = project / relative
        if not overlay.is_dir():
            text = (
                f"{relative} is missing: {source.name} points {name} at it, so {name} checks "
                f"without our stubs and says nothing ({rerun}, or commit the folder)"
            )
            problems.append(Problem(name, text))
            continue
        built = read_record(overlay.parent).get(name)
        if built is None:
            text = f"{relative} has no record of what it was built from ({rerun})"
            problems.append(Problem(name, text))
            continue
        stale = _stale(relative, built, now, rerun)
        problems += [Problem(name, text) for text in stale]
        altered = _altered(relative, overlay, built, now, rerun, fresh=not stale)
        problems += [Problem(name, text, altered=True) for text in altered]
    return problems


def _stale(relative: str, built: Built, now: Now, rerun: str) -> list[str]:
    problems: list[str] = []
    name = built.checker
    if built.tool != __version__:
        problems.append(
            f"{relative} was built by typing-literalstring {built.tool}, this is "
            f"{__version__} ({rerun})"
        )
    elif built.specs and built.specs != specs_digest():
        problems.append(
            f"{relative} was built from other specifications of typing-literalstring "
            f"{__version__} than these ({rerun})"
        )
    version = now.versions.get(name)
    if version is not None and built.checker_version != version:
        problems.append(
            f"{relative} was built from the typeshed of {name} {built.checker_version}, "
            f"{version} is installed ({rerun})"
        )
    elif version is not None and built.base and built.base != now.bases(name):
        problems.append(
            f"{relative} was built from the typeshed of {built.base}, {now.bases(name)} is "
            f"installed ({rerun})"
        )
    current = now.packages(built.profile)
    changed = sorted(
        f"{p} ({built.packages.get(p, 'not copied')} -> {current.get(p, 'not needed')})"
        for p in set(current) | set(built.packages)
        if current.get(p) != built.packages.get(p)
    )
    if changed:
        problems.append(
            f"{relative} holds other third-party copies than the project needs now: "
            f"{', '.join(changed)} ({rerun})"
        )
    return problems


def _altered(
    relative: str, overlay: Path, built: Built, now: Now, rerun: str, *, fresh: bool
) -> list[str]:
    """The files of ``overlay`` that differ from init.json's digests, and from a fresh build
    when one can be compared (``fresh``: nothing else has changed since init)."""
    why = (
        f"{built.checker} loads these files as they are, so a stub edited by hand can let a "
        f"str through where ours require a LiteralString ({rerun}: it writes the folder again)"
    )
    found = digest_tree(overlay)
    problems: list[str] = []
    named: set[str] = set()
    if not built.files:
        problems.append(
            f"{relative}: init.json records no digest of its files (an older init wrote it), so "
            f"a changed stub cannot be told from ours ({rerun})"
        )
    else:
        listed = differences(built.files, found)
        named = {entry.split(" ", 1)[1] for entry in listed}
        if listed:
            problems.append(
                f"{relative} is not what init wrote (the digests in init.json): "
                f"{', '.join(listed)}. {why}"
            )
    if fresh and now.rebuild is not None and now.versions.get(built.checker) is not None:
        with tempfile.TemporaryDirectory(prefix="typing-literalstring-doctor-") as tmp:
            rebuilt = Path(tmp) / built.checker
            now.rebuild(built.checker, built.profile, rebuilt)
            expected = digest_tree(rebuilt)
        listed = [
            entry
            for entry in differences(expected, found, ignore=(MANIFEST,))
            if entry.split(" ", 1)[1] not in named
        ]
        if listed:
            problems.append(
                f"{relative} differs from a fresh build of the same overlay: "
                f"{', '.join(listed)}. {why}"
            )
    return problems
