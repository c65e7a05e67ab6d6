"""Third-party sinks: our specifications applied to the types installed in the checked
environment.

A specification folder ``stubs/<distribution>/`` speaks of the package's own modules
(``stubs/psycopg2/psycopg2/_psycopg.pyi``).  The base is what the checker would use without us:
the package's stub package installed in the checked environment (``psycopg2-stubs/`` from
types-psycopg2), else the package's own inline types (``py.typed``: SQLAlchemy, Jinja2), its
modules copied as they are (source_copy.py).  The overlay of a package is a folder for the
search path that ``check`` already passes, holding a complete copy of the base (a stub package
under both the package's name and its ``-stubs`` name) with only the specified signatures
tightened: the layout all six checkers honour (docs/third-party-overrides.md).

Overlays are cached by the installed version of their base, our specifications and our version,
so an upgrade of the package rebuilds its overlay.  A package that is installed without types,
or whose base no longer matches a specification, is not covered, and ``check`` says so.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from typing_literalstring import __version__
from typing_literalstring.core import interpreter
from typing_literalstring.core.errors import SpecError
from typing_literalstring.core.safe_write import copy_tree
from typing_literalstring.specs.cache import cache_root
from typing_literalstring.specs.installed import Installed
from typing_literalstring.specs.source_copy import copy_sources, module_file
from typing_literalstring.specs.stubspec import STDLIB, ModuleSpec, load_specs, specs_dir
from typing_literalstring.specs.tighten import tighten_module

NOT_INSTALLED = "not installed"
# Packages that ship no types in any release and whose sinks we still tighten: the base is the
# installed package's own modules, copied as for inline types (what a checker infers from them
# stays).  Their specifications also give the return types that lead to the sinks (asyncpg's
# `connect()` and `Pool.acquire()` are unannotated, so to mypy `(await connect()).fetch(q)`
# would be Any and never reach a tightened parameter).  Only where the specification is
# written for that: mypy checks a module on its search path as the project's own, bodies and
# all, where it takes an installed untyped package as Any.
FROM_OWN_SIGNATURES = frozenset({"asyncpg"})
# Installed, but the checked files reach it neither by an import nor through the requirements
# of what they import: not tightened, and nothing is missed.
NOT_IMPORTED = "not imported by the checked files"


@dataclass(frozen=True)
class Coverage:
    """One package our specifications tighten, as found in the checked environment."""

    distribution: str  # the specification folder: "psycopg2", "PyMySQL"
    package: str  # the import name: "psycopg2", "pymysql"
    covered: bool
    why: str  # the base used and where, or why the package is not covered
    base: str = ""  # what was tightened: "types-psycopg2 2.9.21.20261008", "Jinja2 3.1.6"
    root: Path | None = None  # the folder for the search path: <package>/ and <package>-stubs/
    # Not covered because the package, or any types for it, is missing from the environment:
    # a matter of what is installed.  A base that is installed but that a specification no
    # longer applies to is not absent: that is ours to fix, and the tests fail on it.
    absent: bool = False


def specifications(root: Path | None = None) -> dict[str, list[ModuleSpec]]:
    """Each third-party distribution's specifications, by the name of its folder."""
    root = root if root is not None else specs_dir()
    return {
        folder.name: load_specs(folder)
        for folder in sorted(root.iterdir())
        if folder.is_dir() and folder.name != STDLIB
    }


def site_packages(python: Path) -> list[Path]:
    """Where ``python`` installs packages: as it said when the check started it
    (``core.interpreter``), else asked now."""
    return interpreter.answered(python).site_packages()


# Told how many of the packages we have specifications for are done, of how many: a first
# build copies SQLAlchemy's and Django's types, which takes most of a first check.
Progress = Callable[[int, int], None]


def build(
    python: Path,
    profile: str,
    cache_dir: Path | None = None,
    imports: Iterable[str] | None = None,
    progress: Progress | None = None,
) -> list[Coverage]:
    """The tightened copies of the installed packages we have specifications for, built or
    taken from the cache (``--cache-dir``, else the user cache); what was covered and what
    was not.  With ``imports`` (the top-level names the checked files import), only the
    packages those reach, directly or through the requirements of what they import."""
    sites = site_packages(python)
    kept = cache_root(cache_dir) / _COVERAGE
    key = _coverage_key(sites, profile, imports)
    known = _known_coverage(kept, key)
    if known is not None:
        if progress is not None:
            progress(len(known), len(known))
        return known
    wanted = None if imports is None else Installed(sites).reachable(imports)
    cache = cache_root(cache_dir) / "third-party"
    coverage = build_from(sites, profile, cache, wanted=wanted, progress=progress)
    _remember_coverage(kept, key, coverage)
    return coverage


# -- what was covered, kept for the next check ------------------------------------------------
# Finding what a check tightens reads every installed distribution's metadata and parses our
# specifications: a tenth of a warm check, the same answer while nothing below changes.  It is
# kept in the cache under a key made of what the answer depends on, read cheaply: the
# site-packages folders' listings of distributions (with their mtimes: an upgrade, an install or
# a removal changes them), our specifications' and builders' files (size, mtime), our version,
# the profile and the names the checked files import.  A kept answer whose overlays are gone
# is built again.
_COVERAGE = "third-party-coverage"  # a folder of the cache root


def _stamp(path: Path) -> str:
    try:
        found = path.stat()
    except OSError:
        return f"{path}:-"
    return f"{path}:{found.st_size}:{found.st_mtime_ns}"


def _coverage_key(sites: Sequence[Path], profile: str, imports: Iterable[str] | None) -> str:
    digest = hashlib.sha256(f"{__version__}\0{profile}\0".encode())
    digest.update("\0".join(sorted(imports)).encode() if imports is not None else b"\1")
    for site in sites:
        digest.update(f"\0{_stamp(site)}".encode())
        try:
            entries = sorted(e.name for e in os.scandir(site) if e.name.endswith(".dist-info"))
        except OSError:
            entries = []
        for name in entries:
            digest.update(f"\0{_stamp(site / name)}".encode())
    for path in [*sorted(specs_dir().rglob("*.pyi")), *_BUILDERS]:
        digest.update(f"\0{_stamp(path)}".encode())
    return digest.hexdigest()[:24]


def _coverage(item: dict[str, Any]) -> Coverage:
    """A ``Coverage`` read back from its JSON form."""
    root = item.pop("root", None)
    return Coverage(**item, root=Path(str(root)) if root else None)


def _known_coverage(folder: Path, key: str) -> list[Coverage] | None:
    """The coverage kept under ``key``, if every overlay it names is still complete."""
    try:
        kept = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
        coverage = [_coverage(item) for item in kept]
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if any(c.root is not None and not (c.root / _COMPLETE).is_file() for c in coverage):
        return None
    return coverage


def _remember_coverage(folder: Path, key: str, coverage: Sequence[Coverage]) -> None:
    items = [{**asdict(c), "root": str(c.root) if c.root else None} for c in coverage]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".coverage-")
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            json.dump(items, out)
        os.replace(temporary, folder / f"{key}.json")
    except OSError:
        return  # an unwritable cache: found again on the next check


def build_from(
    sites: Sequence[Path],
    profile: str,
    cache: Path,
    root: Path | None = None,
    wanted: set[str] | None = None,
    progress: Progress | None = None,
) -> list[Coverage]:
    """``build`` with the folders that hold the installed packages, the cache folder and the
    import names wanted (None: every package) given."""
    packages = [
        (distribution, package, [spec for spec in specs if spec.package == package])
        for distribution, specs in specifications(root).items()
        for package in sorted({spec.package for spec in specs})
    ]
    coverage: list[Coverage] = []
    for done, (distribution, package, ours) in enumerate(packages):
        if progress is not None:
            progress(done, len(packages))
        coverage.append(_covered(distribution, package, ours, sites, profile, cache, wanted))
    if progress is not None:
        progress(len(packages), len(packages))
    return coverage


@dataclass(frozen=True)
class _Base:
    """The types a checker would use for a package without us."""

    folder: Path  # the stub package, or the package itself when inline
    inline: bool  # the package's own modules (py.typed), copied as they are
    version: str  # "types-psycopg2 2.9.21.20261008", "Jinja2 3.1.6"
    kind: str = ""  # what the base is, for the coverage line; default by ``inline``


def _find_base(distribution: str, package: str, sites: Sequence[Path]) -> _Base | str:
    """The base of ``package``, or why there is none."""
    for site in sites:
        stubs = site / f"{package}-stubs"
        if stubs.is_dir():
            stub_distributions = (f"types-{distribution}", f"{package}-stubs")
            return _Base(stubs, False, _version(site, stub_distributions, stubs.name))
    for site in sites:
        folder = site / package
        if (folder / "py.typed").is_file():
            return _Base(folder, True, _version(site, (distribution,), package))
    if distribution in FROM_OWN_SIGNATURES:
        for site in sites:
            folder = site / package
            if (folder / "__init__.py").is_file():
                version = _version(site, (distribution,), package)
                return _Base(folder, True, version, "its own untyped signatures")
    if any((s / package).is_dir() or (s / f"{package}.py").is_file() for s in sites):
        return (
            f"{distribution} is installed without types (no py.typed, no stub package in "
            "this environment), so its values are Any and there is nothing to tighten; "
            "install its stub package to have its sinks checked"
        )
    return NOT_INSTALLED


def _covered(
    distribution: str,
    package: str,
    specs: Sequence[ModuleSpec],
    sites: Sequence[Path],
    profile: str,
    cache: Path,
    wanted: set[str] | None = None,
) -> Coverage:
    base = _find_base(distribution, package, sites)
    if isinstance(base, str):
        return Coverage(distribution, package, False, base, absent=True)
    if wanted is not None and package not in wanted:
        return Coverage(distribution, package, False, NOT_IMPORTED, base.version)
    kind = base.kind or ("its inline types" if base.inline else "its stub package")
    try:
        entry = _cached(base, package, specs, profile, cache)
    except (OSError, SpecError, SyntaxError) as error:
        return Coverage(
            distribution,
            package,
            False,
            f"the specification no longer applies to {base.version} ({base.folder}): {error}",
        )
    why = f"{base.version} ({kind}) in {base.folder.parent}"
    return Coverage(distribution, package, True, why, base.version, entry)


def _cached(
    base: _Base, package: str, specs: Sequence[ModuleSpec], profile: str, cache: Path
) -> Path:
    """The cache entry holding the overlay of ``package``, built when missing.  Entries are
    built in a private folder and renamed into place, so a concurrent run never sees half of
    one; a rename onto an existing entry fails, and the loser uses the winner's."""
    digest = hashlib.sha256(f"{__version__}\0{base.folder}\0{profile}".encode())
    for spec in specs:
        digest.update(spec.source.read_bytes())
    # The code that writes an entry: a change to it between releases rebuilds the entries.
    for builder in _BUILDERS:
        digest.update(builder.read_bytes())
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", base.version)
    entry = cache / f"{package}-{slug}-{profile}-{digest.hexdigest()[:16]}"
    if (entry / _COMPLETE).is_file():
        return entry
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=cache))
    try:
        _write(base, package, specs, profile, staging / "entry")
        (staging / "entry" / _COMPLETE).write_text(base.version + "\n", encoding="utf-8")
        try:
            os.rename(staging / "entry", entry)
        except OSError:
            if not (entry / _COMPLETE).is_file():  # not a finished entry of a concurrent run
                shutil.rmtree(entry, ignore_errors=True)
                os.rename(staging / "entry", entry)
        return entry
    finally:
        shutil.rmtree(staging, ignore_errors=True)


_HERE = Path(__file__).resolve().parent
_BUILDERS = [
    _HERE / name for name in ("thirdparty.py", "source_copy.py", "tighten.py", "written.py")
]
# Written last into a cache entry: an entry without it is unfinished.
_COMPLETE = "complete"


def _write(
    base: _Base, package: str, specs: Sequence[ModuleSpec], profile: str, into: Path
) -> None:
    """The base under ``into/<package>/``, tightened; a stub package's also copied to
    ``into/<package>-stubs/``.  An inline-typed package's copy is its own modules
    (source_copy.py): only ``<package>/``, for no installed ``-stubs`` folder competes with it,
    and a ``-stubs`` folder of modules is no stub package."""
    copy = into / package
    if base.inline:
        copy_sources(base.folder, copy)
    else:
        # With the modes of new files, not the installed ones: a read-only installation (a
        # system or Nix store) would leave files that cannot be tightened below.
        copy_tree(base.folder, copy)
    for spec in specs:
        module = module_file(copy, spec.target)
        text = module.read_text(encoding="utf-8")
        tightened = tighten_module(text, spec, profile, module=module.suffix == ".py")
        module.write_text(tightened, encoding="utf-8")
    if not base.inline:
        copy_tree(copy, into / f"{package}-stubs")


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _version(site: Path, distributions: Sequence[str], fallback: str) -> str:
    """The first of ``distributions`` installed in ``site`` and its version, from its
    ``.dist-info`` (``types-psycopg2 2.9.21.20261008``); ``fallback`` when there is none."""
    for distribution in distributions:
        prefix = _normalized(distribution) + "-"
        for info in sorted(site.glob("*.dist-info")):
            name = info.name[: -len(".dist-info")]
            if _normalized(name.split("-", 1)[0]) + "-" == prefix:
                return f"{distribution} {name.split('-', 1)[1]}"
    return fallback
