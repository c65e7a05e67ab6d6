"""The part of a project's mypy configuration that ``doctor`` probes, without what runs code.

``doctor`` asks mypy whether the project's configuration loads our overlay and enables our
plugin.  Pointing mypy at that configuration as it stands would run the project's code: mypy
imports every module named in ``plugins`` with the configuration's folder first on
``sys.path`` (so a ``plugins = evil`` beside an ``evil.py`` runs it; django-stubs' plugin
imports the project's settings module), runs ``python_executable``, and ``install_types``
runs pip; report options (``html_report``, ``junit_xml``, ...) and ``cache_dir`` write where
they say.  The project may be a checkout nobody has read yet.

So mypy gets a copy holding only the settings those two questions depend on: where it finds
stubs (``mypy_path``, ``custom_typeshed_dir``), the target (``python_version``), and
``plugins`` less every entry but ours.  The copy is written to the run's work folder;
relative paths keep their meaning because mypy resolves them from its working folder, the
project root, and ``$MYPY_CONFIG_FILE_DIR`` is replaced by the original file's folder.
"""

from __future__ import annotations

import configparser
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

PLUGIN = "typing_literalstring.mypy"
KEPT = ("mypy_path", "custom_typeshed_dir", "python_version")
_CONFIG_DIR_VARIABLES = ("${MYPY_CONFIG_FILE_DIR}", "$MYPY_CONFIG_FILE_DIR")


@dataclass(frozen=True)
class ProjectConfig:
    """The mypy configuration mypy would read in the project root, reduced."""

    source: Path  # the file mypy would read
    settings: dict[str, str]  # the kept settings, as ini values
    other_plugins: tuple[str, ...]  # plugins it names that the copy leaves out


def _ini_value(value: object) -> str:
    if isinstance(value, list):
        return ",".join(str(item) for item in cast("list[object]", value))
    return str(value)


def _load_toml(handle: BinaryIO) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.load(handle)
    # Below 3.11 mypy, the only checker this module serves, depends on tomli.
    loaded: dict[str, Any] = importlib.import_module("tomli").load(handle)
    return loaded


def _read(path: Path) -> dict[str, str] | None:
    """The ``[mypy]`` section of ``path`` as mypy reads it, or None when mypy would skip the
    file (a pyproject.toml without ``[tool.mypy]``, a setup.cfg without ``[mypy]``)."""
    if path.suffix == ".toml":
        try:
            with path.open("rb") as handle:
                section = _load_toml(handle).get("tool", {}).get("mypy")
        except (OSError, ValueError):  # TOMLDecodeError is a ValueError
            return None
        if not isinstance(section, dict):
            return None
        items = cast("dict[object, object]", section).items()
        return {str(k): _ini_value(v) for k, v in items if k != "overrides"}
    parser = configparser.RawConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return None
    if not parser.has_section("mypy"):
        # mypy reads mypy.ini and .mypy.ini even without the section (and warns).
        return {} if path.name != "setup.cfg" else None
    return dict(parser.items("mypy"))


def find(project: Path) -> ProjectConfig | None:
    """The configuration file mypy would read when started in ``project``, in mypy's order."""
    for name in ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"):
        path = project / name
        if not path.is_file():
            continue
        section = _read(path)
        if section is None:
            continue
        plugins = [p.strip() for p in section.get("plugins", "").split(",") if p.strip()]
        ours = [p for p in plugins if p.split(":", 1)[0] == PLUGIN]
        folder = str(path.parent.resolve())
        settings: dict[str, str] = {}
        for key in KEPT:
            if key in section:
                value = section[key]
                for variable in _CONFIG_DIR_VARIABLES:
                    value = value.replace(variable, folder)
                settings[key] = value
        if ours:
            settings["plugins"] = ",".join(ours)
        return ProjectConfig(path, settings, tuple(p for p in plugins if p not in ours))
    return None


def write_reduced(config: ProjectConfig, folder: Path) -> Path:
    """Write the reduced configuration in ``folder``; returns its path."""
    parser = configparser.RawConfigParser()
    parser["mypy"] = config.settings
    path = folder / "project-mypy.ini"
    with path.open("w", encoding="utf-8") as handle:
        parser.write(handle)
    return path
