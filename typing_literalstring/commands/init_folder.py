"""The folder ``init`` writes (``.typing-literalstring/stubs``), beside the overlays themselves:
what keeps every checker from checking it, and the record that tells ``doctor`` whether it is
still the folder ``init`` would write now.

* ``.ignore`` (``*``): ty checks hidden folders, and a plain ``init`` (pyright only) made a
  team's own ``ty check`` go from 31 to 107 diagnostics on litecli.  ty honours ``.ignore``
  files (the ripgrep convention) with no setting and whether or not ty is configured; a
  ``.gitignore`` would do it only inside a git repository, and would make git ignore a folder
  the team may want to commit (measured: docs/init.md).
* ``init.json``: for each overlay, our version, the checker's version and the installed
  third-party packages it holds copies of.  A folder that is missing (git-ignored, not rebuilt
  in CI) or built for other versions leaves pyright's stubPath and mypy's mypy_path pointing at
  nothing or at old stubs, and the checkers say nothing of it: ``doctor`` does.
* pyright and basedpyright warn ``Import "os.path" could not be resolved from source``
  (reportMissingModuleSource) at every ``import os.path`` when ``os/path.pyi`` comes from a
  stubPath, as it is no standard-library typeshed file there and no ``os/path.py`` exists.  We
  tighten nothing in ``os.path``: their overlay leaves it out and takes ``path`` from
  ``posixpath``/``ntpath`` as ``os/path.pyi`` itself does, so the stdlib's own ``os/path.pyi``
  is used (measured: no warning, ``os.system`` still tightened, ``os.path.join`` still typed).
"""

from __future__ import annotations

import configparser
import importlib
import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Mapping, cast

from typing_literalstring import __version__
from typing_literalstring.checkers import mypy_config
from typing_literalstring.core.safe_write import write_text_atomically

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
    """What one overlay was built from."""

    checker: str
    checker_version: str
    profile: str
    packages: Mapping[str, str]  # import name -> the installed base copied ("Jinja2 3.1.6")
    tool: str = __version__


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
            built[str(name)] = Built(
                str(name),
                str(e.get("checker_version", "")),
                str(e.get("profile", "")),
                {str(k): str(v) for k, v in dict(e.get("packages", {})).items()},
                str(e.get("tool", "")),
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
            }
            for name, b in sorted(record.items())
        }
    }
    write_text_atomically(folder / RECORD, json.dumps(data, indent=2) + "\n", prefix=".init.json.")


def configured_overlays(pyproject: Mapping[str, Any], checkers: set[str]) -> list[str]:
    """The overlay folders pyproject.toml points the checkers at that have the shape init
    writes (``<hidden folder>/<checker>``), relative to the project root."""
    tool = pyproject.get("tool", {})
    if not isinstance(tool, dict):
        return []
    tool = cast("dict[str, Any]", tool)
    values: list[object] = []
    for name in PYRIGHTS:
        values.append(_get(tool, name, "stubPath"))
    mypy_path = _get(tool, "mypy", "mypy_path")
    if isinstance(mypy_path, str):
        mypy_path = [p for part in mypy_path.split(",") for p in part.split(":")]
    values += cast("list[object]", mypy_path) if isinstance(mypy_path, list) else []
    extra = _get(tool, "ty", "environment", "extra-paths")
    values += cast("list[object]", extra) if isinstance(extra, list) else []
    values.append(_get(tool, "pyrefly", "typeshed-path"))
    found: list[str] = []
    for value in values:
        if not isinstance(value, str):
            continue
        path = value.strip()
        for variable in ("${MYPY_CONFIG_FILE_DIR}/", "$MYPY_CONFIG_FILE_DIR/"):
            path = path[len(variable) :] if path.startswith(variable) else path
        parts = PurePosixPath(path).parts
        if (
            len(parts) >= 2
            and parts[-1] in checkers
            and not PurePosixPath(path).is_absolute()
            and any(p.startswith(".") and p not in (".", "..") for p in parts[:-1])
            and path not in found
        ):
            found.append(str(PurePosixPath(path)))
    return found


def _get(table: Mapping[str, Any], *names: str) -> object:
    value: object = table
    for name in names:
        if not isinstance(value, dict):
            return None
        value = cast("dict[str, object]", value).get(name)
    return value


def read_pyproject(path: Path) -> dict[str, Any]:
    """pyproject.toml's values ({} when absent or unreadable), read without tomlkit, which
    only init needs: tomllib, or tomli below Python 3.11 (what mypy itself reads it with)."""
    try:
        text = path.read_bytes().decode("utf-8")
        if sys.version_info >= (3, 11):
            import tomllib

            return tomllib.loads(text)
        loaded: dict[str, Any] = importlib.import_module("tomli").loads(text)
        return loaded
    except (OSError, ValueError, ImportError):  # TOMLDecodeError and UnicodeError: ValueErrors
        return {}


def folder_problems(
    project: Path,
    versions: Mapping[str, str | None],
    current_packages: Callable[[str], Mapping[str, str]],
) -> list[str]:
    """Why the overlays pyproject.toml points the checkers at are not what init would write
    now: missing, or built by another version of typing-literalstring, of the checker
    (``versions``: None when not installed) or from other installed packages
    (``current_packages(profile)``: import name -> base, as init would copy them now)."""
    problems: list[str] = []
    data = read_pyproject(project / "pyproject.toml")
    packages_by_profile: dict[str, Mapping[str, str]] = {}
    for relative in configured_overlays(data, set(versions)):
        overlay = project / relative
        name = PurePosixPath(relative).name
        rerun = f"run `typing-literalstring init --checker {name}`"
        if not overlay.is_dir():
            problems.append(
                f"{relative} is missing: pyproject.toml points {name} at it, so {name} checks "
                f"without our stubs and says nothing ({rerun}, or commit the folder)"
            )
            continue
        built = read_record(overlay.parent).get(name)
        if built is None:
            problems.append(f"{relative} has no record of what it was built from ({rerun})")
            continue
        if built.tool != __version__:
            problems.append(
                f"{relative} was built by typing-literalstring {built.tool}, this is "
                f"{__version__} ({rerun})"
            )
        version = versions.get(name)
        if version is not None and built.checker_version != version:
            problems.append(
                f"{relative} was built from the typeshed of {name} {built.checker_version}, "
                f"{version} is installed ({rerun})"
            )
        if built.profile not in packages_by_profile:
            packages_by_profile[built.profile] = current_packages(built.profile)
        now = packages_by_profile[built.profile]
        changed = sorted(
            f"{p} ({built.packages.get(p, 'not copied')} -> {now.get(p, 'not needed')})"
            for p in set(now) | set(built.packages)
            if now.get(p) != built.packages.get(p)
        )
        if changed:
            problems.append(
                f"{relative} holds other third-party copies than the project needs now: "
                f"{', '.join(changed)} ({rerun})"
            )
    return problems


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
    found = mypy_config.find(project)
    if found is None:
        return False
    section: dict[str, object] = {}
    if found.source.suffix == ".toml":
        tool: object = read_pyproject(found.source).get("tool", {})
        mypy: object = (
            cast("dict[str, object]", tool).get("mypy") if isinstance(tool, dict) else None
        )
        section = cast("dict[str, object]", mypy) if isinstance(mypy, dict) else {}
    else:
        parser = configparser.RawConfigParser()
        try:
            parser.read(found.source, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError):
            return False
        if parser.has_section("mypy"):
            section = dict(parser.items("mypy"))
    for key in ("check_untyped_defs", "strict"):  # strict turns check_untyped_defs on
        value = section.get(key)
        if value is True or str(value).strip().lower() in ("true", "1", "yes", "on"):
            return True
    return False
