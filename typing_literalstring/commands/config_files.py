"""Which configuration file each checker reads, so that ``init`` writes our settings where the
checker looks, and ``doctor`` says when they are somewhere it does not (issue 43, item 4).

A checker reads one file and ignores the others: with a ``mypy.ini`` in the project, mypy never
looks at ``[tool.mypy]``, so settings written there load nothing and plain ``mypy`` passes.
Measured (mypy 2.4.1, pyright 1.1.414, basedpyright 1.40.2, ty 1.0.0, zuban 0.11.1, pyrefly
1.5.0; docs/init.md), in the project root, first file present wins:

* mypy: ``mypy.ini``, ``.mypy.ini`` (with or without a ``[mypy]`` section), ``pyproject.toml``
  with ``[tool.mypy]``, ``setup.cfg`` with ``[mypy]`` (mypy's config_parser.py);
* zuban: ``pyproject.toml`` with ``[tool.mypy]`` first, then mypy's other files in mypy's order;
* pyright and basedpyright: ``pyrightconfig.json``, then ``pyproject.toml``
  (basedpyright does not read a ``basedpyrightconfig.json``);
* ty: ``ty.toml``, then ``pyproject.toml``; pyrefly: ``pyrefly.toml``, then ``pyproject.toml``.

When none is there, ``pyproject.toml`` (created if need be).  Each file's values are given in
pyproject's shape (``{"tool": {"mypy": {...}}}``), so that the settings init plans and the
overlays doctor looks for are named one way whatever the file.
"""

from __future__ import annotations

import configparser
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Mapping, Sequence, cast

from typing_literalstring.core import jsonc_edit
from typing_literalstring.core.config_text import NotEditableError, read_config
from typing_literalstring.core.ini_edit import split_items

PYPROJECT = "pyproject"  # pyproject.toml: every checker's table under [tool]
TOML = "toml"  # ty.toml, pyrefly.toml: one checker's table, without the [tool.<name>] prefix
INI = "ini"  # mypy.ini, .mypy.ini, setup.cfg: [mypy] and [mypy-<modules>] sections
JSON = "json"  # pyrightconfig.json: pyright's (and basedpyright's) settings, as JSON with comments

MYPY_INI_FILES = ("mypy.ini", ".mypy.ini")
MYPY_PLUGIN = "typing_literalstring.mypy"
# The file of its own each of the others reads instead of pyproject.toml, when it is there.
OWN_FILES = {
    "pyright": ("pyrightconfig.json", JSON),
    "basedpyright": ("pyrightconfig.json", JSON),
    "ty": ("ty.toml", TOML),
    "pyrefly": ("pyrefly.toml", TOML),
}


@dataclass(frozen=True)
class Target:
    """A file a checker reads its settings from."""

    path: Path
    kind: str
    tool: str  # the [tool.<name>] table the file stands for; "" for pyproject.toml (all)
    why: str = ""  # why the checker reads this file rather than pyproject.toml

    @property
    def name(self) -> str:
        return self.path.name


def _pyproject(project: Path) -> Target:
    return Target(project / "pyproject.toml", PYPROJECT, "")


def _has_mypy_table(path: Path) -> bool:
    tool = load_values(_pyproject(path.parent)).get("tool", {})
    return isinstance(tool, dict) and "mypy" in cast("dict[str, object]", tool)


def _has_mypy_section(path: Path) -> bool:
    parser = configparser.RawConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return False
    return parser.has_section("mypy")


def candidates(checker: str, project: Path) -> list[Target]:
    """The files ``checker`` would read in ``project``, in its order (those present, and the
    ones that take part: a pyproject.toml without ``[tool.mypy]`` is none of mypy's)."""
    pyproject = _pyproject(project)
    found: list[Target] = []
    if checker in ("mypy", "zuban"):
        for name in MYPY_INI_FILES:
            if (project / name).is_file():
                found.append(Target(project / name, INI, "mypy"))
        if pyproject.path.is_file() and _has_mypy_table(pyproject.path):
            # zuban takes [tool.mypy] before mypy.ini; mypy after it (both measured).
            found.insert(0 if checker == "zuban" else len(found), pyproject)
        if (project / "setup.cfg").is_file() and _has_mypy_section(project / "setup.cfg"):
            found.append(Target(project / "setup.cfg", INI, "mypy"))
    elif checker in OWN_FILES and (project / OWN_FILES[checker][0]).is_file():
        name, kind = OWN_FILES[checker]
        found.append(Target(project / name, kind, checker))
    if pyproject not in found:
        found.append(pyproject)
    return found


def target(checker: str, project: Path) -> Target:
    """The file ``checker`` reads in ``project``: where init writes its settings."""
    found = candidates(checker, project)
    first = found[0]
    if first.kind == PYPROJECT:
        later = [t.name for t in found[1:]]
        why = f"{checker} reads [tool.mypy] there before {' and '.join(later)}" if later else ""
        return Target(first.path, first.kind, first.tool, why)
    if first.path.name == "setup.cfg":
        why = (
            f"{checker} reads setup.cfg's [mypy] when pyproject.toml has no [tool.mypy], and "
            "a [tool.mypy] there would make it ignore setup.cfg"
        )
    elif first.kind == INI:
        why = f"{checker} reads {first.name} first" + (
            ", and reads no [tool.mypy] beside it" if checker == "mypy" else ""
        )
    else:
        why = f"{checker} reads {first.name}, which wins over pyproject.toml"
    return Target(first.path, first.kind, first.tool, why)


def load_toml(text: str) -> dict[str, Any]:
    """TOML values, read as the checkers read them (tomllib; tomli or tomlkit below 3.11)."""
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.loads(text)
    for module in ("tomli", "tomlkit"):
        try:
            loader = importlib.import_module(module)
        except ImportError:
            continue
        if module == "tomlkit":
            unwrapped: dict[str, Any] = loader.parse(text).unwrap()
            return unwrapped
        loaded: dict[str, Any] = loader.loads(text)
        return loaded
    raise ValueError("no TOML reader is installed: pip install 'typing-literalstring[init]'")


def parse_values(target: Target, text: str) -> dict[str, Any]:
    """The values of ``text``, the file of ``target``, in pyproject's shape; ValueError when it
    cannot be read (NotEditableError for an INI file configparser refuses)."""
    if target.kind == PYPROJECT:
        return load_toml(text)
    if target.kind == TOML:
        return {"tool": {target.tool: load_toml(text)}}
    if target.kind == JSON:
        value: object = jsonc_edit.loads(text) if text.strip() else {}
        if not isinstance(value, dict):
            raise ValueError(f"{target.name} does not hold a JSON object")
        return {"tool": {target.tool: value}}
    parser = configparser.RawConfigParser()
    try:
        parser.read_string(text, source=target.name)
    except configparser.Error as error:
        raise NotEditableError(f"{target.name} cannot be read as mypy reads it: {error}") from error
    table: dict[str, Any] = dict(parser.items("mypy")) if parser.has_section("mypy") else {}
    if "plugins" in table:  # a list, as [tool.mypy] holds it; mypy_path keeps its text
        table["plugins"] = split_items(str(table["plugins"]), ",")
    overrides: list[dict[str, object]] = []
    for section in parser.sections():
        if section.startswith("mypy-"):
            entry: dict[str, object] = {"module": split_items(section[len("mypy-") :], ",")}
            for key, value in parser.items(section):
                state = configparser.RawConfigParser.BOOLEAN_STATES.get(value.strip().lower())
                entry[key] = value if state is None else state
            overrides.append(entry)
    if overrides:
        table["overrides"] = overrides
    return {"tool": {"mypy": table}}


def load_values(target: Target) -> dict[str, Any]:
    """The values of ``target``'s file ({} when it is absent or cannot be read)."""
    try:
        return parse_values(target, read_config(target.path).text)
    except (ValueError, NotEditableError):  # TOMLDecodeError is a ValueError
        return {}


def table_label(target: Target, table: tuple[str, ...]) -> str:
    """How ``table`` (pyproject's name, ``("tool", "mypy")``) is written in ``target``'s file:
    ``[tool.mypy]``, ``[mypy]``, ``[environment]``; "" for the top level."""
    if target.kind == PYPROJECT:
        return f"[{'.'.join(table)}]"
    inner = table[2:]
    if target.kind == INI:
        return "[mypy]"
    return f"[{'.'.join(inner)}]" if inner else ""


def tool_table(values: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    tool = values.get("tool")
    table = cast("dict[str, Any]", tool).get(name) if isinstance(tool, dict) else None
    return cast("Mapping[str, Any]", table) if isinstance(table, dict) else {}


def configured_overlays(settings: Mapping[str, Any], checkers: set[str]) -> list[str]:
    """The overlay folders a file's ``settings`` (in pyproject's shape) point the checkers at
    that have the shape init writes (``<hidden folder>/<checker>``), relative to the project
    root."""
    tool = settings.get("tool", {})
    if not isinstance(tool, dict):
        return []
    tool = cast("dict[str, Any]", tool)
    values: list[object] = []
    for name in ("pyright", "basedpyright"):
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


def ours_in(values: Mapping[str, Any], checker: str) -> list[str]:
    """What of ours a file's ``values`` set for ``checker``: the overlay folders init writes,
    and for mypy our plugin."""
    found = configured_overlays(values, {checker})
    if checker == "mypy":
        plugins = _get(values, "tool", "mypy", "plugins")
        names = split_items(plugins, ",") if isinstance(plugins, str) else plugins
        if isinstance(names, list) and MYPY_PLUGIN in cast("list[object]", names):
            found.append(f"the plugin {MYPY_PLUGIN}")
    return found


def misplaced(project: Path, checkers: Sequence[str]) -> list[tuple[str, str]]:
    """Our settings for a checker in a file it does not read, while the file it reads has none
    of them: the checker loads no stub of ours, and plain runs pass (issue 43, item 4)."""
    problems: list[tuple[str, str]] = []
    for checker in checkers:
        files = candidates(checker, project)
        read = target(checker, project)
        if ours_in(load_values(read), checker):
            problems += [(checker, text) for text in _hiding(checker, read, files[1:])]
            continue
        for other in files[1:]:
            found = ours_in(load_values(other), checker)
            if found and other.path.is_file():
                problems.append(
                    (
                        checker,
                        f"{other.name} points {checker} at {', '.join(found)}, but {checker} reads "
                        f"{read.name} ({read.why}), which does not: {checker} runs without our "
                        f"stubs and reports nothing at the sinks (run `typing-literalstring init "
                        f"--checker {checker}`: it writes the settings into {read.name})",
                    )
                )
    return problems


def configured(project: Path, checkers: Sequence[str]) -> list[tuple[str, Target]]:
    """The overlay folders the checkers' own configuration points them at (each from the
    file that checker reads), with that file."""
    found: dict[str, Target] = {}
    for checker in checkers:
        read = target(checker, project)
        for relative in configured_overlays(load_values(read), {checker}):
            found.setdefault(relative, read)
    return list(found.items())


# What init writes into [tool.mypy]: a table holding nothing else was made by init.
_OUR_MYPY_KEYS = {"mypy_path", "plugins", "overrides"}


def _hiding(checker: str, read: Target, later: Sequence[Target]) -> list[str]:
    """A [tool.mypy] table holding only our settings (an init of before issue 43 created it)
    that makes mypy or zuban ignore the team's own [mypy] section in another file: they read
    one file, so the team's settings are all lost."""
    if read.kind != PYPROJECT or checker not in ("mypy", "zuban"):
        return []
    table = tool_table(load_values(read), "mypy")
    if not set(table) <= _OUR_MYPY_KEYS:
        return []
    return [
        f"pyproject.toml's [tool.mypy] holds only our settings for {checker}, and makes "
        f"{checker} ignore {other.name}, which holds the team's [mypy] settings ({checker} "
        f"reads one file): delete [tool.mypy] and its [[tool.mypy.overrides]] from "
        f"pyproject.toml and run `typing-literalstring init --checker {checker}`: it writes the "
        f"settings into {other.name}"
        for other in later
        if other.kind == INI and other.path.is_file()
    ][:1]
