"""One small class per type checker: how to find it, run it with an overlay wired in, and read it.

Each checker honours a different mechanism for replacing a standard-library stub (measured in
shared/FACTS.md): mypy and zuban read ``MYPYPATH``, pyright and basedpyright a ``stubPath``, ty an
``--extra-search-path``, and pyrefly only a complete replacement typeshed.  The classes hide that,
so callers say "run this checker on these files for this Python, with this overlay" and get back
a list of :class:`Diagnostic`.

The package holds one module per checker (``mypy``, ``pyright``, ``ty``, ``zuban``, ``pyrefly``),
what they share (``base``: the ``Checker`` class; ``run_values``: ``Diagnostic``, ``Invocation``);
how a checker process is started and stopped is ``core.processes``; this module is the registry.
"""

from __future__ import annotations

from typing import Mapping

from typing_literalstring.checkers.base import Checker
from typing_literalstring.checkers.mypy import Mypy, MypyPlugin
from typing_literalstring.checkers.pyrefly import Pyrefly
from typing_literalstring.checkers.pyright import TYPESHED_DONORS, BasedPyright, Pyright
from typing_literalstring.checkers.run_values import (
    PLATFORMS,
    Diagnostic,
    Invocation,
    Refusal,
    RunResult,
)
from typing_literalstring.checkers.ty import Ty
from typing_literalstring.checkers.zuban import Zuban
from typing_literalstring.core.errors import CheckerNotFoundError

__all__ = [
    "CHECKERS",
    "COMMAND_CHECKERS",
    "DONORS",
    "PLATFORMS",
    "WITH_PLUGIN",
    "BasedPyright",
    "Checker",
    "Diagnostic",
    "Invocation",
    "Mypy",
    "MypyPlugin",
    "Pyrefly",
    "Pyright",
    "Refusal",
    "RunResult",
    "Ty",
    "Zuban",
    "enforcing",
    "get_checker",
]

# The commands name a checker by the program users run; the regression suite also has a column
# for mypy with our plugin, which is what `check`, `doctor` and `init` use for "mypy".
WITH_PLUGIN = {"mypy": "mypy+plugin"}
# Where an overlay for a checker without typeshed files comes from, in order of preference.
DONORS = tuple(donor.name for donor in TYPESHED_DONORS)
CHECKERS: Mapping[str, Checker] = {
    checker.name: checker
    for checker in (Pyright(), BasedPyright(), Mypy(), MypyPlugin(), Ty(), Zuban(), Pyrefly())
}


# The checkers the commands offer (the plugin variants go by the checker's own name).
COMMAND_CHECKERS = [name for name in CHECKERS if name not in WITH_PLUGIN.values()]


def enforcing(checker: Checker) -> Checker:
    """The checker as the commands run it: mypy with our plugin, the others as they are."""
    return CHECKERS[WITH_PLUGIN.get(checker.name, checker.name)]


def get_checker(name: str) -> Checker:
    try:
        return CHECKERS[name]
    except KeyError:
        raise CheckerNotFoundError(
            f"unknown checker {name!r}: choose one of {', '.join(CHECKERS)}"
        ) from None
