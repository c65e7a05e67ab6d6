"""Third-party sinks: our specifications applied to the types installed in the checked
environment.

A specification folder ``stubs/<distribution>/`` speaks of the package's own modules
(``stubs/psycopg2/psycopg2/_psycopg.pyi``).  The base is what the checker would use without us:
the package's stub package installed in the checked environment (``psycopg2-stubs/`` from
types-psycopg2).  The overlay is a folder on the search path that ``check`` already passes,
holding a complete copy of the base under both the package's name and its ``-stubs`` name,
with only the specified modules tightened: the one layout all six checkers honour
(docs/third-party-overrides.md).  It is built for each run from what is installed, so it
follows the installed versions.

A package that is installed without a stub package (inline types), or whose stub package no
longer matches a specification, is not covered, and ``check`` says so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .errors import SpecError, TypingLiteralStringError
from .stubspec import STDLIB, ModuleSpec, load_specs, specs_dir
from .tighten import tighten_module

NOT_INSTALLED = "not installed"


@dataclass(frozen=True)
class Coverage:
    """One package our specifications tighten, as found in the checked environment."""

    distribution: str  # the specification folder: "psycopg2", "PyMySQL"
    package: str  # the import name: "psycopg2", "pymysql"
    covered: bool
    why: str  # the base used and where, or why the package is not covered
    base: str = ""  # the stub distribution and version tightened: "types-psycopg2 2.9.21.20261008"


def specifications(root: Path | None = None) -> dict[str, list[ModuleSpec]]:
    """Each third-party distribution's specifications, by the name of its folder."""
    root = root if root is not None else specs_dir()
    return {
        folder.name: load_specs(folder)
        for folder in sorted(root.iterdir())
        if folder.is_dir() and folder.name != STDLIB
    }


def site_packages(python: Path) -> list[Path]:
    """Where ``python`` installs packages."""
    code = (
        "import json, sysconfig; p = sysconfig.get_paths(); "
        "print(json.dumps([p['purelib'], p['platlib']]))"
    )
    try:
        done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise TypingLiteralStringError(
            f"cannot ask {python} where its packages are ({error}): point --python at a "
            "working interpreter"
        ) from error
    paths: list[str] = json.loads(done.stdout)
    return list(dict.fromkeys(Path(p) for p in paths))


def build(python: Path, into: Path, profile: str, root: Path | None = None) -> list[Coverage]:
    """Write into ``into`` the tightened copies of the installed packages we have
    specifications for; what was covered and what was not."""
    return build_from(site_packages(python), into, profile, root)


def build_from(
    sites: Sequence[Path], into: Path, profile: str, root: Path | None = None
) -> list[Coverage]:
    """``build`` with the folders that hold the installed packages given."""
    coverage: list[Coverage] = []
    for distribution, specs in specifications(root).items():
        for package in sorted({spec.package for spec in specs}):
            ours = [spec for spec in specs if spec.package == package]
            coverage.append(_build_package(distribution, package, ours, sites, into, profile))
    return coverage


def _build_package(
    distribution: str,
    package: str,
    specs: Sequence[ModuleSpec],
    sites: Sequence[Path],
    into: Path,
    profile: str,
) -> Coverage:
    stubs = next((s / f"{package}-stubs" for s in sites if (s / f"{package}-stubs").is_dir()), None)
    installed = any((s / package).is_dir() or (s / f"{package}.py").is_file() for s in sites)
    if stubs is None:
        why = (
            "installed with inline types, which are not tightened yet"
            if installed
            else NOT_INSTALLED
        )
        return Coverage(distribution, package, False, why)
    try:
        tightened = {
            spec.target.split("/", 1)[1]: tighten_module(
                (stubs / spec.target.split("/", 1)[1]).read_text(encoding="utf-8"), spec, profile
            )
            for spec in specs
        }
    except (OSError, SpecError) as error:
        return Coverage(
            distribution,
            package,
            False,
            f"the specification no longer applies to {_installed_version(stubs, distribution)} "
            f"({stubs}): {error}",
        )
    for name in (package, f"{package}-stubs"):
        shutil.copytree(stubs, into / name, dirs_exist_ok=True)
        for relative, text in tightened.items():
            (into / name / relative).write_text(text, encoding="utf-8")
    base = _installed_version(stubs, distribution)
    return Coverage(distribution, package, True, f"{base} in {stubs.parent}", base)


def _installed_version(stubs: Path, distribution: str) -> str:
    """The stub distribution and its version, from its ``.dist-info`` beside ``stubs``
    (``types-psycopg2 2.9.21.20261008``); the folder's name when there is none."""
    prefix = f"types_{distribution}-".lower()
    for info in sorted(stubs.parent.glob("*.dist-info")):
        if info.name.lower().startswith(prefix):
            return f"types-{distribution} {info.name[len(prefix) : -len('.dist-info')]}"
    return stubs.name
