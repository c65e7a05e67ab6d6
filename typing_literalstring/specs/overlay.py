"""Build an overlay: the stdlib modules our specifications tighten, complete, from a base typeshed.

An overlay module replaces the whole module for the checker that reads it, so the builder
copies each touched top-level entry of the base ``stdlib/`` whole (``sqlite3/``,
``subprocess.pyi``, ``logging/``...) and rewrites the files that have a specification.  Built
from the typeshed the checker itself bundles, the overlay matches that checker's version.

Two layouts:

* ``overlay`` (the default): only the touched modules, for a checker's module search path
  (mypy's ``MYPYPATH``, pyright's ``stubPath``, ty's ``--extra-search-path``).
* ``full``: a complete typeshed (``stdlib/`` with ``VERSIONS``) with the modules replaced, for
  checkers that only honour a replacement typeshed (pyrefly) and for ``stubtest``.

The build is deterministic and atomic: it happens in a temporary folder beside the output,
which is renamed into place only when complete.  What it creates gets the modes the umask
gives, whatever the modes of the typeshed it copies.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence, cast

from typing_literalstring import __version__
from typing_literalstring.core.errors import SpecError, TypingLiteralStringError
from typing_literalstring.core.safe_write import copy_tree, set_new_folder_mode
from typing_literalstring.specs.stubspec import ModuleSpec, load_specs
from typing_literalstring.specs.tighten import PROFILES, tighten_module

MANIFEST = "typing-literalstring.json"
# A pseudo-profile: the same modules, copied untouched.  `check` compares a run with the
# tightened overlay against a run with this one, which replaces the same modules the same way
# and so also overrides an overlay the project itself configured.
UNTIGHTENED = "untightened"
LAYOUTS = ("overlay", "full")


@dataclass(frozen=True)
class Overlay:
    root: Path  # what to hand the checker
    profile: str
    layout: str
    files: dict[str, str]  # stub path (relative to stdlib/) -> sha256 of its text, tightened ones

    @property
    def stdlib(self) -> Path:
        """The folder that holds the module files."""
        return self.root / "stdlib" if self.layout == "full" else self.root


def build_overlay(
    base_typeshed: Path,
    out: Path,
    *,
    profile: str = "default",
    layout: str = "overlay",
    specs: list[ModuleSpec] | None = None,
    third_party: Sequence[Path] = (),
) -> Overlay:
    """Build into ``out`` (replacing it) from ``base_typeshed``, the folder holding ``stdlib/``;
    with the contents of each ``third_party`` folder (tightened third-party packages,
    thirdparty.py) at its top."""
    if profile not in (*PROFILES, UNTIGHTENED):
        raise SpecError(f"unknown profile {profile!r}: choose one of {', '.join(PROFILES)}")
    if layout not in LAYOUTS:
        raise SpecError(f"unknown layout {layout!r}: choose one of {', '.join(LAYOUTS)}")
    base_stdlib = base_typeshed / "stdlib"
    if not (base_stdlib / "builtins.pyi").is_file():
        raise TypingLiteralStringError(
            f"{base_typeshed} is not a typeshed folder (no stdlib/builtins.pyi in it)"
        )
    if layout == "full" and not (base_stdlib / "VERSIONS").is_file():
        raise TypingLiteralStringError(
            f"{base_typeshed} has no stdlib/VERSIONS, which a replacement typeshed needs: "
            "build it from another checker's typeshed"
        )
    specs = load_specs() if specs is None else specs
    # Tighten everything in memory first: a specification that no longer matches the base
    # fails here, before anything is written.
    tightened = {
        spec.target: _read_base(base_stdlib, spec)
        if profile == UNTIGHTENED
        else tighten_module(_read_base(base_stdlib, spec), spec, profile)
        for spec in specs
    }
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
        # mkdtemp's folder is private (0700); renamed into place it is the overlay, which the
        # project's other users and tools read: it gets a new folder's mode.
        set_new_folder_mode(staging)
    except OSError as error:
        raise _unwritable(out, error) from error
    try:
        stdlib = staging / "stdlib" if layout == "full" else staging
        if layout == "full":
            copy_tree(base_stdlib, stdlib)
            # mypy loads mypy_extensions from a custom typeshed's stubs/ folder.
            extensions = base_typeshed / "stubs" / "mypy-extensions"
            if extensions.is_dir():
                copy_tree(extensions, staging / "stubs" / "mypy-extensions")
        for package in sorted({spec.package for spec in specs}):
            source = base_stdlib / package
            if source.is_dir():
                shutil.rmtree(stdlib / package, ignore_errors=True)
                copy_tree(source, stdlib / package)
            else:
                shutil.copyfile(source, stdlib / package)
        for target, text in tightened.items():
            (stdlib / target).write_text(text, encoding="utf-8", newline="")
        for folder in third_party:
            for copied in sorted(folder.iterdir()):
                if copied.is_dir():
                    copy_tree(copied, staging / copied.name)
        files = {t: hashlib.sha256(text.encode()).hexdigest() for t, text in tightened.items()}
        manifest = {
            "builder": __version__,
            "profile": profile,
            "layout": layout,
            "base": str(base_typeshed),
            "files": files,
        }
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        _replace(staging, out)
    except BaseException as error:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(error, OSError):
            raise _unwritable(out, error) from error
        raise
    return Overlay(out, profile, layout, files)


def _unwritable(out: Path, error: OSError) -> TypingLiteralStringError:
    reason: object = error.strerror or error
    if isinstance(error, shutil.Error) and error.args and isinstance(error.args[0], list):
        failures = cast("list[tuple[str, str, str]]", error.args[0])
        reason = failures[0][2]  # copytree gathers one (source, target, reason) per file
    return TypingLiteralStringError(
        f"cannot write the overlay to {out} ({reason}): choose a writable folder"
    )


def _read_base(base_stdlib: Path, spec: ModuleSpec) -> str:
    path = base_stdlib / spec.target
    if not path.is_file():
        raise SpecError(
            f"{spec.source}: the base typeshed has no {spec.target} (looked for {path}): "
            "the module moved; update the specification"
        )
    return path.read_text(encoding="utf-8")


def _replace(staging: Path, out: Path) -> None:
    """Move the finished build to ``out``; an older build there is removed only afterwards."""
    old: Path | None = None
    if out.is_symlink() or out.exists():  # a link is moved aside itself, never followed
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
        os.replace(out, old / "previous")
    os.replace(staging, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def stdlib_modules(base_typeshed: Path) -> frozenset[str]:
    """The top-level modules of the standard library: the entries of the typeshed's ``stdlib/``
    (zuban's copy has no ``VERSIONS`` file, so the folder itself is the list)."""
    stdlib = base_typeshed / "stdlib"
    try:
        entries = list(stdlib.iterdir())
    except OSError as error:
        raise SpecError(
            f"cannot list {stdlib} ({error.strerror}): the checker's typeshed is incomplete; "
            "reinstall the checker"
        ) from error
    return frozenset(e.stem if e.suffix == ".pyi" else e.name for e in entries)
