"""A cache of built overlays, keyed by checker, its version, profile and our stubs.

Entries are immutable: one is built in a private folder and renamed into place, and a rename
onto an existing entry fails, so two runs sharing the cache never see a half-written overlay;
the loser of a race uses the winner's entry.  An entry whose files do not match its manifest is
rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from typing_literalstring import __version__
from typing_literalstring.checkers import Checker
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.specs.overlay import MANIFEST, build_overlay
from typing_literalstring.specs.stubspec import specs_dir

CACHE_ENV = "TYPING_LITERALSTRING_CACHE"


def cache_root(explicit: Path | None = None) -> Path:
    """``--cache-dir``, else $TYPING_LITERALSTRING_CACHE, else the user cache folder."""
    if explicit is not None:
        return explicit
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "typing-literalstring"


@dataclass(frozen=True)
class CachedOverlay:
    root: Path
    rebuilt_corrupt: bool  # an entry was there but did not match its manifest


def _key(checker: Checker, version: str, profile: str, base: Path) -> str:
    digest = hashlib.sha256(f"{__version__}\0{base}\0{profile}".encode())
    for spec in sorted(specs_dir().rglob("*.pyi")):
        digest.update(spec.read_bytes())
    return f"{checker.name}-{version}-{profile}-{digest.hexdigest()[:16]}"


def is_complete(root: Path) -> bool:
    """Whether ``root`` holds an overlay whose tightened files match its manifest."""
    try:
        manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        stdlib = root / "stdlib" if manifest["layout"] == "full" else root
        for target, digest in manifest["files"].items():
            if hashlib.sha256((stdlib / target).read_bytes()).hexdigest() != digest:
                return False
        return True
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def _unwritable(root: Path, error: OSError) -> TypingLiteralStringError:
    return TypingLiteralStringError(
        f"cannot write the overlay cache in {root} ({error.strerror or error}): pass "
        f"--cache-dir or set {CACHE_ENV} to a writable folder"
    )


def cached_overlay(checker: Checker, profile: str, cache_dir: Path | None = None) -> CachedOverlay:
    root = cache_root(cache_dir)
    base = checker.overlay_base()
    entry = root / _key(checker, checker.version(), profile, base)
    if is_complete(entry):
        return CachedOverlay(entry, rebuilt_corrupt=False)
    corrupt = entry.exists()
    try:
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".build-", dir=root))
    except OSError as error:
        raise _unwritable(root, error) from error
    try:
        layout = "full" if checker.needs_full_typeshed else "overlay"
        built = build_overlay(base, staging / "overlay", profile=profile, layout=layout)
        if corrupt:
            shutil.move(str(entry), str(staging / "corrupt"))
        try:
            os.rename(built.root, entry)
        except OSError:
            if not is_complete(entry):  # not a finished entry from a concurrent run
                raise
        return CachedOverlay(entry, rebuilt_corrupt=corrupt)
    except OSError as error:
        raise _unwritable(root, error) from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def incremental_cache(cache_dir: Path | None, *key: str) -> Path:
    """A folder for a checker's incremental cache (mypy's), kept between checks in the user
    cache, one per ``key`` (project, environment, overlay, run): a second check of an unchanged
    project then costs what a second run of the checker costs.  The checker validates its own
    entries (mypy compares each module's hash and options), so the key only keeps projects
    and configurations from overwriting each other's."""
    digest = hashlib.sha256("\0".join((__version__, *key)).encode()).hexdigest()[:24]
    return cache_root(cache_dir) / "incremental" / digest
