"""The folder ``init`` writes (``.typing-literalstring/stubs``), beside the overlays themselves:
what keeps every checker from checking it, and the record that tells ``doctor`` whether it is
still the folder ``init`` would write now.

* ``.ignore`` (``*``): ty checks hidden folders, and a plain ``init`` (pyright only) made a
  team's own ``ty check`` go from 31 to 107 diagnostics on litecli.  ty honours ``.ignore``
  files (the ripgrep convention) with no setting and whether or not ty is configured; a
  ``.gitignore`` would do it only inside a git repository, and would make git ignore a folder
  the team may want to commit (measured: docs/init.md).
* ``init.json``: for each overlay, our version and specifications' digest, the checker's
  version (and for ty and pyrefly, whose typeshed is compiled in, the one theirs was built
  from), the installed third-party packages it holds copies of, and a digest of each of its
  files.  A folder that is missing (git-ignored, not rebuilt in CI), built for other versions,
  or changed by hand leaves pyright's stubPath and mypy's mypy_path pointing at nothing, at old
  stubs or at loosened ones, and the checkers say nothing of it: ``doctor`` does
  (init_integrity.py).
* pyright and basedpyright warn ``Import "os.path" could not be resolved from source``
  (reportMissingModuleSource) at every ``import os.path`` when ``os/path.pyi`` comes from a
  stubPath, as it is no standard-library typeshed file there and no ``os/path.py`` exists.  We
  tighten nothing in ``os.path``: their overlay leaves it out and takes ``path`` from
  ``posixpath``/``ntpath`` as ``os/path.pyi`` itself does, so the stdlib's own ``os/path.pyi``
  is used (measured: no warning, ``os.system`` still tightened, ``os.path.join`` still typed).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Mapping, Sequence, cast

from typing_literalstring import __version__
from typing_literalstring.checkers import Checker
from typing_literalstring.commands import config_files
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.core.safe_write import write_text_atomically
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.overlay import build_overlay
from typing_literalstring.specs.stubspec import specs_dir

IGNORE_FILE = ".ignore"
IGNORE_TEXT = (
    "# Written by `typing-literalstring init`: stubs generated for the type checkers, not\n"
    "# the project's code. ty (and ripgrep) skip the files an .ignore file matches.\n"
    "*\n"
)
RECORD = "init.json"
PYRIGHTS = ("pyright", "basedpyright")


def write_ignore(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / IGNORE_FILE
    if not target.is_file() or target.read_text(encoding="utf-8") != IGNORE_TEXT:
        write_text_atomically(target, IGNORE_TEXT, prefix=".ignore.")


_OS_PATH_IMPORT = "from . import path as _path\n"
_OS_PATH_NAMES = "from .path import ("
_OS_PATH_FROM_STDLIB = (
    'if sys.platform == "win32":\n'
    "    import ntpath as _path\n"
    "    from ntpath import (\n"
    "{names}"
    "else:\n"
    "    import posixpath as _path\n"
    "    from posixpath import (\n"
    "{names}"
)


def os_path_from_stdlib(overlay: Path) -> None:
    """Leave ``os/path.pyi`` out of a pyright overlay (see the module's text)."""
    init, path = overlay / "os" / "__init__.pyi", overlay / "os" / "path.pyi"
    if not (init.is_file() and path.is_file()):
        return
    text = init.read_text(encoding="utf-8")
    start = text.find(_OS_PATH_NAMES)
    end = text.find(")\n", start)
    if _OS_PATH_IMPORT not in text or start < 0 or end < 0:
        return  # another typeshed's layout: keep the overlay's os.path rather than guess
    names = (
        "".join(
            f"        {line.strip()}\n"
            for line in text[start + len(_OS_PATH_NAMES) : end].splitlines()
        )
        + "    )\n"
    )
    text = text[:start] + text[end + 2 :]
    text = text.replace(_OS_PATH_IMPORT, _OS_PATH_FROM_STDLIB.format(names=names), 1)
    if "\nimport sys\n" not in text:
        text = "import sys\n" + text
    init.write_text(text, encoding="utf-8")
    path.unlink()


@dataclass(frozen=True)
class Built:
    """What one overlay was built from, and what it holds."""

    checker: str
    checker_version: str
    profile: str
    packages: Mapping[str, str]  # import name -> the installed base copied ("Jinja2 3.1.6")
    tool: str = __version__
    # The typeshed it was built from when not the checker's own (ty's and pyrefly's come from
    # pyright's): "pyright 1.1.414".
    base: str = ""
    specs: str = ""  # our specifications' digest (init_integrity.py)
    files: Mapping[str, str] = field(default_factory=lambda: {})  # path -> digest of its text


def base_of(checker: Checker) -> str:
    """The typeshed ``checker``'s overlay is built from, by name and version, when it is not
    the checker's own ("" when it is: the checker's version says it)."""
    if checker.bundled_typeshed is not None:
        return ""
    base = checker.overlay_base()
    for donor_class in checker.typeshed_donors:
        donor = donor_class()
        try:
            if find_spec(donor.name) is not None and donor.typeshed_dir() == base:
                return f"{donor.name} {donor.version()}"
        except TypingLiteralStringError:
            continue
    return str(base)


def build_for(
    checker: Checker, out: Path, profile: str, coverage: Sequence[thirdparty.Coverage]
) -> Built:
    """Build ``checker``'s overlay into ``out`` as init writes it, with the third-party copies
    of ``coverage``; what it was built from and the digest of each of its files."""
    copied = [c for c in coverage if c.root is not None]
    layout = "full" if checker.needs_full_typeshed else "overlay"
    roots = [c.root for c in copied if c.root is not None]
    build_overlay(checker.overlay_base(), out, profile=profile, layout=layout, third_party=roots)
    if checker.name in PYRIGHTS and layout == "overlay":
        os_path_from_stdlib(out)
    packages = {c.package: c.base for c in copied}
    one_copy_per_package(out, checker.name, list(packages))
    return Built(
        checker.name,
        checker.version(),
        profile,
        packages,
        base=base_of(checker),
        specs=specs_digest(),
        files=digest_tree(out),
    )


def read_record(folder: Path) -> dict[str, Built]:
    try:
        raw: object = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict):
        return {}
    built: dict[str, Built] = {}
    for name, entry in cast("dict[str, Any]", raw).get("overlays", {}).items():
        if isinstance(entry, dict):
            e = cast("dict[str, Any]", entry)
            files: object = e.get("files", {})
            digests = cast("dict[object, object]", files) if isinstance(files, dict) else {}
            built[str(name)] = Built(
                str(name),
                str(e.get("checker_version", "")),
                str(e.get("profile", "")),
                {str(k): str(v) for k, v in dict(e.get("packages", {})).items()},
                str(e.get("tool", "")),
                str(e.get("base", "")),
                str(e.get("specs", "")),
                {str(k): str(v) for k, v in digests.items()},
            )
    return built


def write_record(folder: Path, overlays: list[Built]) -> None:
    """Add (or replace) the entries of ``overlays``; the others (an earlier init for another
    checker) stay."""
    record = read_record(folder)
    record.update({b.checker: b for b in overlays})
    data = {
        "overlays": {
            name: {
                "tool": b.tool,
                "checker_version": b.checker_version,
                "profile": b.profile,
                "packages": dict(sorted(b.packages.items())),
                "base": b.base,
                "specs": b.specs,
                "files": dict(sorted(b.files.items())),
            }
            for name, b in sorted(record.items())
        }
    }
    write_text_atomically(folder / RECORD, json.dumps(data, indent=2) + "\n", prefix=".init.json.")


def digest_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes().replace(b"\r\n", b"\n")).hexdigest()


def digest_tree(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative, "/"-separated) and its digest; a symbolic link
    is recorded as the place it points to, never followed."""
    found: dict[str, str] = {}
    for parent, folders, files in os.walk(folder):
        here = Path(parent)
        for name in [*files, *(f for f in folders if (here / f).is_symlink())]:
            path = here / name
            relative = path.relative_to(folder).as_posix()
            if path.is_symlink():
                found[relative] = "symlink to " + os.readlink(path)
            else:
                found[relative] = digest_file(path)
    return dict(sorted(found.items()))


def specs_digest() -> str:
    """One digest of our specifications: an overlay built from other ones differs from a
    fresh build without having been changed by hand."""
    digest = hashlib.sha256()
    root = specs_dir()
    for spec in sorted(root.rglob("*.pyi")):
        digest.update(spec.relative_to(root).as_posix().encode() + b"\0")
        digest.update(spec.read_bytes())
    return digest.hexdigest()


def differences(
    expected: Mapping[str, str], found: Mapping[str, str], *, ignore: tuple[str, ...] = ()
) -> list[str]:
    """``changed X``, ``missing X``, ``added X`` for each file of ``found`` that is not as in
    ``expected``, sorted by file."""
    out: list[tuple[str, str]] = []
    for name in sorted(set(expected) | set(found)):
        if name in ignore:
            continue
        if name not in found:
            out.append((name, f"missing {name}"))
        elif name not in expected:
            out.append((name, f"added {name}"))
        elif expected[name] != found[name]:
            out.append((name, f"changed {name}"))
    return [text for _, text in out]


def one_copy_per_package(overlay: Path, checker: str, packages: list[str]) -> None:
    """Remove the copy of each third-party package that ``checker`` does not read.  The cache
    holds each package twice, as ``jinja2/`` and ``jinja2-stubs/``, the one layout all six
    checkers honour (docs/third-party-overrides.md); in its own overlay each checker needs one:
    the package's name for pyright, basedpyright, mypy, ty and pyrefly, while zuban takes a
    stub package's copy only under its ``-stubs`` name (and an inline package's under its
    name), so zuban's overlay keeps both.  Halves the folder: django-stubs is 3.5 MB a copy."""
    if checker == "zuban":
        return
    for package in packages:
        copy = overlay / f"{package}-stubs"
        if copy.is_dir() and (overlay / package).is_dir():
            shutil.rmtree(copy)


def checks_untyped_bodies(project: Path) -> bool:
    """Whether the mypy configuration of ``project`` checks the bodies of unannotated
    functions (``check_untyped_defs``, or ``strict``): mypy skips them otherwise, and the
    sinks called in them (Django's untyped ``handle()`` methods)."""
    target = config_files.target("mypy", project)
    section = config_files.tool_table(config_files.load_values(target), "mypy")
    for key in ("check_untyped_defs", "strict"):  # strict turns check_untyped_defs on
        value = section.get(key)
        if value is True or str(value).strip().lower() in ("true", "1", "yes", "on"):
            return True
    return False
