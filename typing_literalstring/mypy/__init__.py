"""PEP 675 LiteralString for mypy: a mypy plugin.

mypy reads ``LiteralString`` as plain ``str`` (mypy issue 12554), so it never rejects a
non-literal string.  Enable this plugin in the mypy configuration to make it enforce PEP 675::

    [tool.mypy]
    plugins = ["typing_literalstring.mypy"]

Its errors have their own code, ``literal-string``: silence one with
``# type: ignore[literal-string]``, all with ``--disable-error-code literal-string``.

The plugin leans on mypy internals, so it supports the mypy releases in
:data:`SUPPORTED_MYPY` only, and refuses to run on any other (it never stops checking silently).
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy.plugin import Plugin

# Keep in step with the `mypy` extra in pyproject.toml.
SUPPORTED_MYPY = ">=2.4,<2.5"
_LOWEST = (2, 4)
_BELOW = (2, 5)
_INSTALL = "pip install 'typing-literalstring[mypy]'"


class UnsupportedMypyError(Exception):
    """The running mypy is not one the plugin supports."""


def unsupported(version: str) -> str | None:
    """Why the plugin cannot run under mypy ``version``; None when it can."""
    match = re.match(r"(\d+)\.(\d+)", version)
    if match is not None and _LOWEST <= (int(match[1]), int(match[2])) < _BELOW:
        return None
    return (
        f"typing_literalstring.mypy supports mypy {SUPPORTED_MYPY}, not mypy {version}: "
        f"LiteralString would not be checked. Install a supported mypy ({_INSTALL}), or "
        "remove typing_literalstring.mypy from the mypy plugins"
    )


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: the plugin class, if this mypy is one the plugin supports."""
    problem = unsupported(version)
    if problem is None:
        try:
            from typing_literalstring.mypy.plugin_type import LiteralStringPlugin
        except (ImportError, AttributeError) as error:
            problem = (
                f"typing_literalstring.mypy cannot use mypy {version} ({error}); it supports "
                f"mypy {SUPPORTED_MYPY}: install a supported mypy ({_INSTALL})"
            )
        else:
            return LiteralStringPlugin
    # Raised out of plugin(), an exception shows as a traceback: say it plainly and stop.
    print(f"error: {problem}", file=sys.stderr)
    raise SystemExit(2)
