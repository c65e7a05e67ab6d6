"""The probed copies of a project kept from one check to the next.

Finding the project's sink calls and wrappers and writing the questions into the copies
(``probes.with_wrappers``, ``probes.instrumented``) is most of our own time: about 0.6 s on a
5 KLOC project, where a warm mypy run takes 0.2 s.  Its result depends only on the checked
files' bytes and paths, the search roots, the checker, the profile, the probe's names, the
Python that parses and our own code; when none of them changed, the copies of the last check
are taken as they were, as mypy and ruff take their caches.

One slot per (project root, checker, profile) in the user cache (``prepared/``), overwritten by
each check, so the cache never grows with the edits.  The slot holds the key it was made for;
a slot of another key, an unreadable or a truncated one is ignored (the copies are made
anew), never an error.

The slot is a pickle: loading runs whatever it names, so it is only ever read from the user
cache (``--cache-dir``, $TYPING_LITERALSTRING_CACHE or the user cache folder), which no
checked project can name or write (docs/security.md), and written by us alone.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence, cast

from typing_literalstring import __version__
from typing_literalstring.specs.cache import cache_root
from typing_literalstring.specs.stubspec import specs_dir

if TYPE_CHECKING:
    from typing_literalstring.analysis.probes import ProbedCopy

_FOLDER = "prepared"
_FORMAT = b"tls-prepared-1\n"


@lru_cache(maxsize=None)
def _own_code() -> str:
    """A digest of our package's sources and specifications (which name the sinks): a check
    made by other code makes other copies."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(__version__.encode())
    for folder, pattern in ((package, "*.py"), (specs_dir(), "*.pyi")):
        for path in sorted(folder.rglob(pattern)):
            digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def key(
    digests: Mapping[Path, str],
    roots: Sequence[Path],
    checker: str,
    version: str,
    profile: str,
    probe: str,
) -> str:
    """What the copies are made from: the files (path and bytes), the roots their modules
    resolve from, the checker, the profile, the probe's names, the Python that parses, us."""
    digest = hashlib.sha256()
    for part in (_own_code(), sys.version, checker, version, profile, probe):
        digest.update(part.encode() + b"\0")
    for root in roots:
        digest.update(str(root).encode() + b"\0")
    for path, file_digest in sorted((str(p.resolve()), d) for p, d in digests.items()):
        digest.update(f"{path}\0{file_digest}\0".encode())
    return digest.hexdigest()


def _slot(cache_dir: Path | None, root: Path, checker: str, profile: str) -> Path:
    name = hashlib.sha256(f"{root}\0{checker}\0{profile}".encode()).hexdigest()[:24]
    return cache_root(cache_dir) / _FOLDER / f"{name}.pickle"


def load(
    cache_dir: Path | None, root: Path, checker: str, profile: str, wanted: str
) -> dict[str, ProbedCopy] | None:
    """The copies kept for ``wanted`` (``key``), or None: none kept, another key's, or a slot
    that cannot be read."""
    try:
        data = _slot(cache_dir, root, checker, profile).read_bytes()
    except OSError:
        return None
    head = _FORMAT + wanted.encode() + b"\n"
    if not data.startswith(head):
        return None
    try:
        copies = pickle.loads(data[len(head) :])
    except Exception:
        return None
    return cast("dict[str, ProbedCopy]", copies) if isinstance(copies, dict) else None


def store(
    cache_dir: Path | None,
    root: Path,
    checker: str,
    profile: str,
    made_for: str,
    copies: Mapping[str, ProbedCopy],
) -> None:
    """Keep ``copies`` for the next check (replacing the slot whole: a concurrent check reads
    the old slot or the new one, never half of one).  A cache that cannot be written, or
    copies that cannot be pickled, only cost the next check its time."""
    slot = _slot(cache_dir, root, checker, profile)
    try:
        data = pickle.dumps(dict(copies), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, KeyError, RecursionError):
        # KeyError: a node tagged outside its file's tree (unverified.Instrumented), not kept.
        return
    try:
        slot.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".slot-", dir=slot.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(_FORMAT + made_for.encode() + b"\n" + data)
            os.replace(temporary, slot)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return


__all__ = ["key", "load", "store"]
