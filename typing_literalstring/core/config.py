"""The ``[tool.typing-literalstring]`` table of the project root's pyproject.toml, and the rule
selectors that it and ``check --select/--ignore`` take.

Every key is checked when it is read: a misspelt key or an unknown rule code stops the run
(exit 2) with the key or code named and the fix, rather than being ignored, which would make
a run check something other than what its owner wrote.
"""

from __future__ import annotations

import difflib
import importlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.specs.sinks import RULES

TABLE = "tool.typing-literalstring"
KEYS = (
    "checker",
    "profile",
    "select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "baseline",
    "fail-on-unverified",
)
RULE_IDS = tuple(rule.id for rule in RULES)
# A selector is a rule code or a prefix of codes (LS1: the SQL rules), as ruff's are.
_SELECTOR = re.compile(r"LS\d{0,3}")


class ConfigError(TypingLiteralStringError):
    """The configuration table or a selection option says something we cannot follow."""


@dataclass(frozen=True)
class Settings:
    """What the table says; ``None`` where it says nothing (the command line or the default
    decides)."""

    checker: str | None = None
    profile: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: {})
    exclude: tuple[str, ...] = ()
    baseline: Path | None = None  # absolute: relative paths are the root's
    # Any sink call left unverified fails the run (exit 1): the gate for "nothing unproven".
    fail_on_unverified: bool | None = None
    source: Path | None = None  # the pyproject.toml read, for messages


def selectors(values: Iterable[str], where: str) -> tuple[str, ...]:
    """Rule selectors given comma-separated or one by one, each checked: an unknown one is an
    error naming it and ``where`` it was written."""
    found: list[str] = []
    for value in values:
        for part in value.split(","):
            code = part.strip().upper()
            if not code:
                continue
            if not _SELECTOR.fullmatch(code) or not any(r.startswith(code) for r in RULE_IDS):
                raise ConfigError(
                    f"{where}: unknown rule code {part.strip()!r}; the rules are "
                    f"{', '.join(RULE_IDS)}, and a prefix such as LS1 (the SQL rules) or LS9 "
                    "(the Any rules) selects a family"
                )
            found.append(code)
    return tuple(found)


def selected(values: Iterable[str], where: str) -> tuple[str, ...]:
    """``selectors`` of a select, which must name a rule: an empty one would report nothing,
    a gate that always passes."""
    found = selectors(values, where)
    if not found:
        raise ConfigError(
            f"{where} names no rule: give rule codes or prefixes (LS1), or LS for every rule"
        )
    return found


def _toml(path: Path) -> dict[str, Any]:
    """``path`` read as TOML: tomllib from Python 3.11, else tomli or tomlkit if installed."""
    data = path.read_bytes()
    for name in ("tomllib", "tomli"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        loaded: dict[str, Any] = module.loads(data.decode("utf-8"))
        return loaded
    try:
        tomlkit = importlib.import_module("tomlkit")
    except ImportError:
        # Without a TOML reader a project with no table of ours loses nothing; one with it
        # must not be checked as if it had none.
        if b"typing-literalstring" in data:
            raise ConfigError(
                f"{path}: reading its [{TABLE}] table needs a TOML reader, and Python "
                f"{sys.version_info[0]}.{sys.version_info[1]} has none: pip install tomli"
            ) from None
        return {}
    unwrapped: dict[str, Any] = tomlkit.parse(data.decode("utf-8")).unwrap()
    return unwrapped


def _mapping(value: object) -> dict[str, Any] | None:
    """A TOML table (a dict, as every reader loads it) with its keys as strings; None for
    any other value."""
    if not isinstance(value, dict):
        return None
    items: dict[Any, Any] = value  # pyright: ignore[reportUnknownVariableType]
    return {str(key): item for key, item in items.items()}


def _strings(value: object, where: str, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list):
        raise ConfigError(f'{where} must be a list of {what}, like ["..."]; it is {value!r}')
    items: list[Any] = list(value)  # pyright: ignore[reportUnknownArgumentType]
    if not all(isinstance(item, str) for item in items):
        raise ConfigError(f"{where} must be a list of {what} (strings); it is {value!r}")
    return tuple(str(item) for item in items)


def _choice(value: object, where: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{where} is {value!r}; it must be one of {', '.join(choices)}")
    return value


def _confined(root: Path, value: str, where: str) -> Path:
    """The table's ``baseline``, which must lead to a file inside the project ``root``.

    A checkout's own pyproject.toml is written by whoever wrote the checkout: were its
    ``baseline`` free, ``check --write-baseline`` in a clone would create folders and a file
    wherever it says (an absolute path, ``../..``, a folder that is a link out).  So it is
    resolved as the system would (``..`` and every link on the way) and must stay inside the
    root; ``--baseline`` on the command line is the user's own choice and is not confined."""
    real_root = root.resolve()
    try:
        target = (root / value).resolve()
    except (OSError, RuntimeError) as error:  # a link loop: RuntimeError before Python 3.13
        raise ConfigError(
            f"{where} = {value!r} cannot be resolved ({error}): give a path inside the project"
        ) from error
    if real_root not in target.parents:
        raise ConfigError(
            f"{where} = {value!r} leads outside the project {real_root} (to {target}), so "
            "writing the baseline would change files there: give a path inside the project, "
            "relative to its root (such as .typing-literalstring/baseline.json), or pass "
            "--baseline PATH on the command line for a file elsewhere"
        )
    return root / value


def read(root: Path, checkers: Sequence[str], profiles: Sequence[str]) -> Settings:
    """The table in ``root``/pyproject.toml (empty settings when there is none), with every
    key and value checked against ``checkers`` and ``profiles`` and the rules."""
    path = root / "pyproject.toml"
    if not path.is_file():
        return Settings()
    try:
        document = _toml(path)
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror}") from error
    except ValueError as error:  # tomllib's and tomli's TOMLDecodeError, tomlkit's ParseError
        # A broken pyproject.toml is its owner's business while it holds no table of ours:
        # the checker runs with settings of our own, so nothing else of it is read.
        if b"typing-literalstring" not in path.read_bytes():
            return Settings(source=path)
        raise ConfigError(f"{path} is not valid TOML: {error}") from error
    table: object = (_mapping(document.get("tool")) or {}).get("typing-literalstring")
    if table is None:
        return Settings(source=path)
    name = f"{path.name}: [{TABLE}]"
    entries = _mapping(table)
    if entries is None:
        raise ConfigError(f"{name} must be a table")
    unknown = [key for key in entries if key not in KEYS]
    if unknown:
        close = difflib.get_close_matches(unknown[0], KEYS, n=1)
        raise ConfigError(
            f"{name} unknown key {unknown[0]!r}"
            + (f" (did you mean {close[0]!r}?)" if close else "")
            + f"; the keys are {', '.join(KEYS)} (docs/configuration.md)"
        )
    checker = entries.get("checker")
    profile = entries.get("profile")
    select = entries.get("select")
    ignore = entries.get("ignore")
    per_file = _mapping(entries.get("per-file-ignores", {}))
    if per_file is None:
        raise ConfigError(
            f'{name} per-file-ignores must be a table of glob = [codes], like "tests/*" = ["LS101"]'
        )
    per_file_ignores = {
        str(glob): selectors(
            _strings(codes, f"{name} per-file-ignores {glob!r}", "rule codes"),
            f"{name} per-file-ignores {glob!r}",
        )
        for glob, codes in per_file.items()
    }
    baseline = entries.get("baseline")
    if baseline is not None and (not isinstance(baseline, str) or not baseline):
        raise ConfigError(f"{name} baseline must be a path (a string); it is {baseline!r}")
    gate = entries.get("fail-on-unverified")
    if gate is not None and not isinstance(gate, bool):
        raise ConfigError(f"{name} fail-on-unverified must be true or false; it is {gate!r}")
    return Settings(
        checker=None if checker is None else _choice(checker, f"{name} checker", checkers),
        profile=None if profile is None else _choice(profile, f"{name} profile", profiles),
        select=None
        if select is None
        else selected(_strings(select, f"{name} select", "rule codes"), f"{name} select"),
        ignore=None
        if ignore is None
        else selectors(_strings(ignore, f"{name} ignore", "rule codes"), f"{name} ignore"),
        per_file_ignores=per_file_ignores,
        exclude=()
        if "exclude" not in entries
        else _strings(entries["exclude"], f"{name} exclude", "globs"),
        baseline=None if baseline is None else _confined(root, baseline, f"{name} baseline"),
        fail_on_unverified=gate,
        source=path,
    )
