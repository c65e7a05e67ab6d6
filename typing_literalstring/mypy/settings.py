"""The plugin's own settings, read from the mypy configuration file.

Both checks are off by default (PEP 675 lets them pass):

    [tool.typing_literalstring]        # pyproject.toml
    disallow_any = true                # a value of type Any may not reach LiteralString
    shell_argv = true                  # ["sh", "-c", script]: the script must be literal

    [typing_literalstring]             # mypy.ini or setup.cfg
    disallow_any = True
    shell_argv = True
"""

from __future__ import annotations

import configparser
import importlib
import sys
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Callable, Mapping

SECTION = "typing_literalstring"


class SettingsError(Exception):
    """The plugin's section of the mypy configuration is not valid."""


@dataclass(frozen=True)
class Settings:
    disallow_any: bool = False
    shell_argv: bool = False
    # check's own run: calls of the project's unannotated functions get the type their
    # returns have, as pyright infers it (returns.py).  Off for a team's mypy: it changes
    # types that have nothing to do with LiteralString.
    infer_return_types: bool = False

    def as_json(self) -> dict[str, bool]:
        return asdict(self)


def _toml_section(path: Path) -> Mapping[str, object]:
    # tomllib from Python 3.11; mypy depends on tomli before that.
    module = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    load: Callable[[Any], dict[str, Any]] = module.load
    with path.open("rb") as handle:
        data = load(handle)
    section = data.get("tool", {}).get(SECTION, {})
    if not isinstance(section, dict):
        raise SettingsError(f"{path}: [tool.{SECTION}] must be a table")
    return section  # pyright: ignore[reportUnknownVariableType]


def _ini_section(path: Path) -> Mapping[str, object]:
    parser = configparser.ConfigParser()
    parser.read(path, encoding="utf-8")
    if not parser.has_section(SECTION):
        return {}
    out: dict[str, object] = {}
    for key in parser.options(SECTION):
        try:
            out[key] = parser.getboolean(SECTION, key)
        except ValueError:
            raise SettingsError(
                f"{path}: [{SECTION}] {key} must be true or false, not {parser.get(SECTION, key)!r}"
            ) from None
    return out


def read_settings(config_file: str | None) -> Settings:
    """The settings in mypy's configuration file (defaults where there is none)."""
    if not config_file:
        return Settings()
    path = Path(config_file)
    try:
        section = _toml_section(path) if path.suffix == ".toml" else _ini_section(path)
    except (OSError, ValueError) as error:
        raise SettingsError(f"cannot read {path}: {error}") from error
    known = {f.name for f in fields(Settings)}
    values: dict[str, bool] = {}
    for key, value in section.items():
        name = key.replace("-", "_")
        if name not in known:
            raise SettingsError(
                f"{path}: unknown setting {key!r} for typing_literalstring.mypy "
                f"(known: {', '.join(sorted(known))})"
            )
        if not isinstance(value, bool):
            raise SettingsError(f"{path}: {key} must be true or false, not {value!r}")
        values[name] = value
    return Settings(**values)
