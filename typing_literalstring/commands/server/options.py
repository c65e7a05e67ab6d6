"""The server's settings: the options of ``check`` that an editor may set, and the server's own.

They come, each later one winning key by key, from the server's command line, the editor's
``initializationOptions`` and its workspace configuration (section ``typing-literalstring``);
what none of them sets the project's ``[tool.typing-literalstring]`` table decides, as for
``check``.  A value that is not valid is left out with a warning naming the key and what it
takes, never guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Any, Callable, Mapping, cast

from typing_literalstring.checkers import COMMAND_CHECKERS, PLATFORMS
from typing_literalstring.specs.tighten import PROFILES

# The configuration section editors send the settings under.
SECTION = "typing-literalstring"
# How an unverified outcome (LS901 to LS904) is shown: the editor's severities a team picks from.
UNVERIFIED_SEVERITIES = ("warning", "information")
# How long the server waits after a save for the next one before it checks: "Save all" sends
# one notification per file, and each would otherwise start a check the next one cancels.
DEFAULT_DEBOUNCE_MS = 150
_PYTHON_VERSION = re.compile(r"3\.\d{1,2}")


@dataclass(frozen=True)
class Options:
    """What one check of the server runs with; None: the project's table, else the default."""

    checker: str | None = None
    profile: str | None = None
    python: str | None = None  # the project's interpreter, as `check --python`
    python_version: str | None = None
    platform: str | None = None
    report_any: bool = False
    unverified_severity: str = "warning"
    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    # Only from the command line: a folder the server writes to is not the workspace's choice.
    cache_dir: str | None = None


def _choice(allowed: tuple[str, ...]) -> Callable[[object], str | None]:
    def check(value: object) -> str | None:
        return value if isinstance(value, str) and value in allowed else None

    return check


def _python_version(value: object) -> str | None:
    return value if isinstance(value, str) and _PYTHON_VERSION.fullmatch(value) else None


def _path(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _milliseconds(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10_000:
        return None
    return value


# The settings an editor may send: its key -> (our field, the check, what it takes).
_KEYS: dict[str, tuple[str, Callable[[object], Any], str]] = {
    "checker": ("checker", _choice(tuple(sorted(COMMAND_CHECKERS))), ", ".join(COMMAND_CHECKERS)),
    "profile": ("profile", _choice(PROFILES), ", ".join(PROFILES)),
    "python": ("python", _path, "the path of the project's Python or of its environment"),
    "pythonVersion": ("python_version", _python_version, "a version like 3.12"),
    "platform": ("platform", _choice(PLATFORMS), ", ".join(PLATFORMS)),
    "reportAny": ("report_any", _flag, "true or false"),
    "unverifiedSeverity": (
        "unverified_severity",
        _choice(UNVERIFIED_SEVERITIES),
        ", ".join(UNVERIFIED_SEVERITIES),
    ),
    "debounceMilliseconds": ("debounce_ms", _milliseconds, "a whole number from 0 to 10000"),
}
KEYS = tuple(_KEYS)


def section(settings: object) -> Mapping[str, object]:
    """Our settings in what an editor sent: the ``typing-literalstring`` section of a
    configuration object, or the object itself when it is already that section."""
    if not isinstance(settings, dict):
        return {}
    found = cast("dict[object, object]", settings)
    inner = found.get(SECTION)
    chosen = cast("dict[object, object]", inner) if isinstance(inner, dict) else found
    return {str(k): v for k, v in chosen.items()}


def merged(options: Options, settings: Mapping[str, object]) -> tuple[Options, list[str]]:
    """``options`` with each valid key of ``settings`` applied, and a warning for each key
    that is not valid (unknown keys of other tools in the section are left alone)."""
    changes: dict[str, Any] = {}
    warnings: list[str] = []
    for key, value in settings.items():
        if key not in _KEYS or value is None:
            continue
        name, check, takes = _KEYS[key]
        accepted = check(value)
        if accepted is None:
            warnings.append(
                f"setting {SECTION}.{key} = {value!r} is not valid and is ignored: it takes {takes}"
            )
        else:
            changes[name] = accepted
    return replace(options, **changes), warnings


def from_command_line(values: Mapping[str, object]) -> Options:
    """The options the ``server`` command was started with (argparse's names)."""
    known = {f.name for f in fields(Options)}
    given: dict[str, Any] = {k: v for k, v in values.items() if k in known and v is not None}
    return Options(**given)
