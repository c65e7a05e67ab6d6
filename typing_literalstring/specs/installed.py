"""Which installed packages a set of files can reach: the packages they import, and what those
packages require, read from the installed distributions' metadata (``*.dist-info``).

`check` tightens only these third-party packages: building a copy of SQLAlchemy or Django for a
project that never imports them costs seconds, and zuban checks every file on its search path.
A package reached through another one counts (Flask's templates are Jinja2's), so the copy a
re-export leads to is tightened too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Sequence

# `import a.b`, `from a.b import c` at the start of a line (indented too): the top-level name.
_IMPORT = re.compile(r"^[ \t]*(?:from|import)[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
# A requirement's name: the first word of `Requires-Dist: Jinja2>=3.1.2; extra == "async"`.
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def imported_names(files: Iterable[Path]) -> set[str]:
    """The top-level module names the files import (a superset: strings and comments that look
    like imports count too, which only means a package more is tightened)."""
    names: set[str] = set()
    for path in files:
        try:
            names.update(_IMPORT.findall(path.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            continue
    return names


def normalized(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


class Installed:
    """The distributions installed in some site-packages folders: their import names and their
    requirements."""

    def __init__(self, sites: Sequence[Path]) -> None:
        self.by_module: dict[str, set[str]] = {}  # import name -> distributions
        self.requires: dict[str, set[str]] = {}  # distribution -> distributions it requires
        self.modules: dict[str, set[str]] = {}  # distribution -> its import names
        for site in sites:
            for info in sorted(site.glob("*.dist-info")):
                self._add(info)

    def _add(self, info: Path) -> None:
        try:
            metadata = _headers((info / "METADATA").read_text(encoding="utf-8"))
        except OSError:
            return
        name = normalized(next(iter(metadata.get("name", [])), info.name.split("-")[0]))
        requires = {
            normalized(match[1])
            for line in metadata.get("requires-dist", [])
            if "extra ==" not in line and (match := _REQUIREMENT.match(line))
        }
        self.requires.setdefault(name, set()).update(requires)
        for module in _top_levels(info):
            self.by_module.setdefault(module, set()).add(name)
            self.modules.setdefault(name, set()).add(module)

    def reachable(self, modules: Iterable[str]) -> set[str]:
        """The import names of the distributions ``modules`` belong to, and of every
        distribution those require, transitively; ``modules`` themselves included."""
        found = set(modules)
        pending = [d for m in found for d in self.by_module.get(m, ())]
        seen: set[str] = set()
        while pending:
            distribution = pending.pop()
            if distribution in seen:
                continue
            seen.add(distribution)
            found |= self.modules.get(distribution, set())
            pending.extend(self.requires.get(distribution, ()))
        return found


def _headers(text: str) -> dict[str, list[str]]:
    """The header fields of a METADATA file (RFC 822 style, as ``email.parser`` reads them:
    up to the first empty line, a line that starts with a space continuing the field before
    it), each name lower-cased.  Reading 80 files with ``email`` took a tenth of a warm
    check; this reads only the few lines above the description."""
    fields: dict[str, list[str]] = {}
    last: list[str] | None = None
    for line in text.split("\n"):
        if not line.strip():
            break
        if line[0] in " \t" and last:
            last[-1] += " " + line.strip()
            continue
        name, colon, value = line.partition(":")
        if colon:
            last = fields.setdefault(name.strip().lower(), [])
            last.append(value.strip())
    return fields


def _top_levels(info: Path) -> set[str]:
    """The import names a distribution installs: its ``top_level.txt``, else the first part of
    each path its RECORD lists (a stub package's ``psycopg2-stubs`` is ``psycopg2``)."""
    top_level = info / "top_level.txt"
    if top_level.is_file():
        lines = top_level.read_text(encoding="utf-8").split()
    else:
        try:
            record = (info / "RECORD").read_text(encoding="utf-8").splitlines()
        except OSError:
            return set()
        lines = [line.split(",", 1)[0].split("/", 1)[0] for line in record if "/" in line]
    names: set[str] = set()
    for line in lines:
        name = _without(_without(line, ".py"), "-stubs")
        if name and not name.endswith((".dist-info", ".data")) and name != "__pycache__":
            names.add(name)
    return names


def _without(text: str, suffix: str) -> str:
    """``text.removesuffix(suffix)``, which Python 3.8 lacks."""
    return text[: -len(suffix)] if text.endswith(suffix) else text
