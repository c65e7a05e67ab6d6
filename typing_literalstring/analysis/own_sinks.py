"""Which errors of the tightened run come from our own stubs, told from the messages alone.

An error at a sink call may come from our tightening, or from a callee of the same name that
takes LiteralString anyway (psycopg 3's ``execute``, a team's own ``run`` helper).  Comparing
with a run on the untightened stubs tells them apart, but costs a second checker run.  Most
such errors say enough on their own: the checker names the expected type, the function, and
(depending on the checker) the parameter, the class or the full module path.  When every one of
those matches a parameter that our specifications tighten, and no checked file defines a
function of that name taking LiteralString, the error is ours; anything less certain is left
to the comparison run.

Not decided here: "no overload matches" errors (pyright, basedpyright and ty never name the
refused types there, whatever the overloads' order; docs/checker-messages.md).
"""

from __future__ import annotations

import ast
import enum
import functools
import re
from dataclasses import dataclass
from typing import Collection, Sequence

from typing_literalstring.analysis.literal_errors import (
    Callee,
    callee_in,
    expected_type,
    is_about_literal_string,
    is_no_matching_overload,
)
from typing_literalstring.analysis.statements import all_nodes
from typing_literalstring.checkers import Diagnostic
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.sinks import DB_API_LABELS, SINK_NAMES
from typing_literalstring.specs.stubspec import SHELL, load_specs
from typing_literalstring.specs.typeshed_literals import takes_literal_string


@dataclass(frozen=True)
class TightenedParameter:
    """A parameter that our specifications give a LiteralString type."""

    module: str  # "sqlite3", "asyncio.subprocess"
    owner: str  # the class holding the method, or "" for a module-level function
    function: str
    parameter: str
    annotation: str  # as the specification writes it: "LiteralString | Sequence[LiteralString]"
    condition: str  # stubspec.ALWAYS, SHELL (only with shell=True) or ARGS
    distribution: str = ""  # a third-party one's specification folder; "" for the stdlib
    # Found by position in the base (the parameter is named otherwise in some releases).
    by_position: bool = False

    @property
    def api(self) -> str:
        """How a finding names it: "psycopg2 cursor.execute", "psycopg2.sql.SQL"."""
        if self.function in _CONSTRUCTORS:
            return f"{self.module}.{self.owner}"
        owner = f"{self.owner}." if self.owner else ""
        return f"{self.distribution or self.module} {owner}{self.function}"

    @property
    def called_as(self) -> str:
        """The name a call uses: the class for a constructor."""
        return self.owner if self.function in _CONSTRUCTORS else self.function


_CONSTRUCTORS = ("__init__", "__new__")


def _module_of(target: str) -> str:
    """The module a specification tightens: ``asyncio/subprocess.pyi`` -> ``asyncio.subprocess``."""
    path = target[: -len(".pyi")]
    if path.endswith("/__init__"):
        path = path[: -len("/__init__")]
    return path.replace("/", ".")


@functools.lru_cache(maxsize=1)
def tightened_parameters() -> tuple[TightenedParameter, ...]:
    """Every parameter our specifications tighten: the stdlib's, then third-party ones."""
    specs = [("", spec) for spec in load_specs()] + [
        (distribution, spec)
        for distribution, specs in thirdparty.specifications().items()
        for spec in specs
    ]
    return tuple(
        TightenedParameter(
            _module_of(spec.target),
            function.owner or "",
            function.name,
            r.name,
            r.annotation,
            function.condition,
            distribution,
            r.position is not None,
        )
        for distribution, spec in specs
        for function in spec.functions
        for r in function.retypes
    )


def _members(annotation: str) -> frozenset[str]:
    """A union's members, whatever their order (pyrefly writes `LiteralString | Composable |
    bytes` for our `LiteralString | bytes | Composable`)."""
    # Without module qualifiers: mypy writes our `nodes.Template` as `Template`.
    return frozenset(_QUALIFIER.sub("", "".join(part.split())) for part in annotation.split("|"))


_QUALIFIER = re.compile(r"\b(?:\w+\.)+(?=\w)")


def literal_string_functions(tree: ast.AST, source: str) -> set[str]:
    """Names of the functions defined in a file with a parameter annotated with LiteralString."""
    if "LiteralString" not in source:  # most files: no walk
        return set()
    return {
        node.name
        for node in all_nodes(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and takes_literal_string(node)
    }


class Verdict(enum.Enum):
    OURS = "only our stubs give this error"
    NOT_OURS = "the error is about something else"
    UNSURE = "compare with a run on the untightened stubs"


def _names(callee: Callee, tightened: TightenedParameter) -> bool:
    """Whether the callee the message names may be ``tightened``'s function."""
    if callee.qualified:
        return callee.function == ".".join(
            p for p in (tightened.module, tightened.owner, tightened.function) if p
        )
    if callee.function not in (tightened.function, tightened.called_as):
        return False
    return not callee.cls or callee.cls == tightened.owner


# How mypy and zuban name a callable that has no name of its own: a bound method held in a
# variable (invoke's `debug = log.debug`) reads 'Argument 1 to "function"'.
_UNNAMED = "function"


# The function a "no overload matches" names: pyright 'No overloads for "normpath"', mypy and
# zuban 'No overload variant of "run"', ty 'function `check_call`', pyrefly '`os.path.normpath`'.
_OVERLOADED = re.compile(r'[`"]([\w.]+)[`"]')
# Names under which a message may speak of a sink called by another: its constructor, or a
# callable without a name of its own.
_NOT_BY_NAME = ("__init__", "__new__", "__call__", _UNNAMED)


def judge(
    diagnostic: Diagnostic, called_as: str, checker: str, ambiguous: Collection[str] = ()
) -> Verdict:
    """Whether an error inside a call of the sink ``called_as`` is one that only our stubs give.

    ``ambiguous``: the names of functions in the checked files that take LiteralString, whose
    errors could read like ours.
    """
    if is_no_matching_overload(diagnostic):
        overloaded = _OVERLOADED.search(diagnostic.message)
        function = overloaded[1].rsplit(".", 1)[-1] if overloaded is not None else None
        if function is not None and function not in (called_as, *_NOT_BY_NAME, *SINK_NAMES):
            # A call inside the sink's argument (borgmatic: `os.path.normpath(path)` in a log
            # message).  Any sink's name stays unsure: typeshed spells some by another
            # (`fatal = critical`).
            return Verdict.NOT_OURS
        return Verdict.UNSURE
    if not is_about_literal_string(diagnostic, checker):
        return Verdict.NOT_OURS
    expected = expected_type(diagnostic.message)
    callee = callee_in((diagnostic.message,))
    if expected is None or callee is None:
        return Verdict.UNSURE
    if callee.function == _UNNAMED:
        return _unnamed_callee(expected, called_as, ambiguous)
    named = matching(diagnostic, called_as)
    if not named:
        return Verdict.NOT_OURS  # another callee or another type (psycopg 3's execute)
    callee = callee_in((diagnostic.message,))
    if all(t.distribution for t in named) and not (callee is not None and callee.qualified):
        # psycopg 3's own `sql.SQL(obj: LiteralString)` reads like psycopg2's from ours.
        return Verdict.UNSURE
    return Verdict.UNSURE if called_as in ambiguous else Verdict.OURS


def _unnamed_callee(expected: str, called_as: str, ambiguous: Collection[str]) -> Verdict:
    """mypy's 'Argument 1 to "function"': a callable held in a variable, called by a sink's
    name (invoke's `debug = log.debug`, then `debug(msg)`: 63 errors in 8 files on invoke under
    the strict profile, each compared in an untightened run).  A function the project defines
    would be named; so, when the expected type is the one our specification gives that sink
    and no function of the project of that name takes LiteralString, the error is ours."""
    if called_as in ambiguous:
        return Verdict.UNSURE
    ours = any(
        t.called_as == called_as and _members(expected) == _members(t.annotation)
        for t in tightened_parameters()
    )
    return Verdict.OURS if ours else Verdict.UNSURE


def matching(diagnostic: Diagnostic, called_as: str) -> list[TightenedParameter]:
    """The tightened parameters an error about LiteralString may speak of: the callee, the
    expected type and (where the checker names it) the parameter all match."""
    expected = expected_type(diagnostic.message)
    callee = callee_in((diagnostic.message,))
    if expected is None or callee is None:
        return []
    parameter = "" if callee.parameter.startswith("argument ") else callee.parameter
    return [
        t
        for t in tightened_parameters()
        if t.called_as == called_as
        and _names(callee, t)
        and _members(expected) == _members(t.annotation)
        and (parameter in ("", t.parameter) or t.by_position)
    ]


# `@when_shell` gives the base overload `shell: Literal[False]`; the stock stubs say `shell: bool`.
# pyright and basedpyright follow "no overloads" with every failing argument of the overload that
# matched best, which for a shell=True call with a non-literal command is that base overload.
_SHELL_REFUSED = re.compile(r'parameter "shell" of type "Literal\[False\]"')


def may_be_ours(diagnostic: Diagnostic, checker: str) -> bool:
    """Cheap, from the message alone: whether ``judge_call`` could say anything but NOT_OURS."""
    return (
        is_no_matching_overload(diagnostic)
        or is_about_literal_string(diagnostic, checker)
        or _SHELL_REFUSED.search(diagnostic.message) is not None
    )


@functools.lru_cache(maxsize=None)
def only_with_a_shell(called_as: str) -> bool:
    """Whether every parameter of this name that we tighten is tightened only with
    ``shell=True`` (``@when_shell``: subprocess.run, Popen; not os.system)."""
    tightened = [t for t in tightened_parameters() if t.called_as == called_as]
    return bool(tightened) and all(t.condition == SHELL for t in tightened)


def judge_call(
    diagnostics: Sequence[Diagnostic],
    called_as: str,
    checker: str,
    ambiguous: Collection[str] = (),
) -> list[Verdict]:
    """``judge`` for each error at one sink call, together: at a shell sink, pyright's message
    that our `shell: Literal[False]` overload refused `shell=True` settles the call's "no
    overloads" error too."""
    verdicts = [judge(d, called_as, checker, ambiguous) for d in diagnostics]
    shell_sink = any(
        t.called_as == called_as and t.condition == SHELL for t in tightened_parameters()
    )
    if shell_sink and any(_SHELL_REFUSED.search(d.message) for d in diagnostics):
        verdicts = [
            Verdict.OURS
            if _SHELL_REFUSED.search(d.message) or is_no_matching_overload(d)
            else verdict
            for d, verdict in zip(diagnostics, verdicts)
        ]
    if shell_sink and checker == "pyrefly":
        verdicts = [
            _pyrefly_shell_verdict(d) or verdict for d, verdict in zip(diagnostics, verdicts)
        ]
    return verdicts


# pyrefly lists the argument types of a call no overload matched:
# "... `subprocess.check_call` called with arguments: (str, shell=Literal[True])".
_CALLED_WITH = re.compile(r"called with arguments: \((?P<arguments>[^\n]*)\)")
# A command as our shell overloads refuse it, and as they take it.
_STR_COMMAND = re.compile(r"(?:args=)?(?:str|(?:list|Sequence|tuple)\[str(?:, \.\.\.)?\])")
_LITERAL_COMMAND = re.compile(
    r"(?:args=)?(?:LiteralString|Literal\[.*\]"
    r"|(?:list|Sequence|tuple)\[LiteralString(?:, \.\.\.)?\])"
)


def _pyrefly_shell_verdict(diagnostic: Diagnostic) -> Verdict | None:
    """pyrefly's "no matching overload" at a shell sink, settled by the command's type it
    lists, without an untightened run: ``str`` with ``shell=True`` is what our overloads refuse,
    whatever else the call gets wrong (datasette's `check_call`, invoke's `Popen`); a literal
    command fails them for another reason (`check_call("ls", shell=True, cwd=3)` was a
    finding: the stock run words that error otherwise).  None: the type says neither."""
    listed = _CALLED_WITH.search(diagnostic.message)
    if not is_no_matching_overload(diagnostic) or listed is None:
        return None
    arguments = _top_level_items(listed["arguments"])
    if not arguments or "shell=Literal[True]" not in arguments:
        return None
    return _command_verdict(arguments[0])


def shell_command_verdict(diagnostic: Diagnostic, command: str) -> Verdict | None:
    """A "no overload matches" at a shell sink whose command the run revealed (ty, which lists
    no argument types; ``probes``): as ``_pyrefly_shell_verdict`` decides from pyrefly's list."""
    return _command_verdict(command) if is_no_matching_overload(diagnostic) else None


def _command_verdict(command: str) -> Verdict | None:
    if _STR_COMMAND.fullmatch(command):
        return Verdict.OURS
    if _LITERAL_COMMAND.fullmatch(command):
        return Verdict.NOT_OURS
    return None


def _top_level_items(listed: str) -> list[str]:
    """``str, env=dict[str, Any]`` -> ``["str", "env=dict[str, Any]"]``."""
    items: list[str] = []
    depth, start = 0, 0
    for index, character in enumerate(listed):
        if character in "[(":
            depth += 1
        elif character in "])":
            depth -= 1
        elif character == "," and depth == 0:
            items.append(listed[start:index].strip())
            start = index + 1
    items.append(listed[start:].strip())
    return [i for i in items if i]


# Libraries that type their own SQL sinks with LiteralString (no specification of ours): in a
# file that imports one (and not the package our table names), a call of such a name is its.
LIBRARIES_TYPED_LITERAL: dict[str, dict[str, str]] = {
    "psycopg": {
        "execute": "psycopg Connection/Cursor.execute",
        "executemany": "psycopg Cursor.executemany",
        "SQL": "psycopg.sql.SQL",
    },
}


def named_by_specification(
    name: str, api: str, imported: Collection[str], qualified: str = ""
) -> str:
    """The name our specification gives the sink a call of ``name`` reaches in a file that
    imports ``imported`` (``qualified``: what the callee's own import says it is, as
    `django.template.Template` for `DjangoTemplate`), where exactly one fits: "SQLAlchemy
    text", not the table's "sqlalchemy.text"; where several do, all of them
    (``named_by_receiver`` tells them apart); ``api`` where none does."""
    if name in DB_API_LABELS and "sqlite3" in imported:
        return api
    candidates = [
        t
        for t in tightened_parameters()
        if t.called_as == name and t.distribution and t.module.split(".")[0] in imported
    ]
    if qualified:
        top = qualified.split(".")[0]
        candidates = [t for t in candidates if t.module.split(".")[0] == top] or candidates
    found = sorted({t.api for t in candidates})
    return " or ".join(found) if found else api


def named_by_receiver(name: str, api: str, receiver: str) -> str:
    """Of the sinks ``api`` names ("psycopg2 cursor.execute or PyMySQL Cursor.execute"), the
    ones whose class the receiver's revealed type names (``cursor``, ``pymysql.cursors.Cursor``,
    ``MySQLdb.cursors.Cursor | None``): the module where the checker prints it, else the class
    alone; ``api`` unchanged when none matches."""
    if " or " not in api:
        return api
    words = set(re.findall(r"[\w.]+", receiver))
    candidates = [t for t in tightened_parameters() if t.called_as == name and t.api in api]
    qualified = {t.api for t in candidates if f"{t.module}.{t.owner}" in words}
    by_class = {t.api for t in candidates if t.owner in {w.rsplit(".", 1)[-1] for w in words}}
    found = qualified or by_class
    return " or ".join(sorted(found)) if found else api


def named_by_imports(name: str, api: str, imported: Collection[str]) -> str:
    """How to name a call of an SQL method the table names "sqlite3 Connection/Cursor.execute"
    whatever its receiver, where the checker's messages do not say (its text is Any, it is
    called through a wrapper): in a file that imports no sqlite3, the sinks of that name our
    specifications tighten in the packages ``imported`` (Django's CursorWrapper, asyncpg's
    Connection), or a library that types its own (psycopg 3), else a DB-API cursor's (issue
    28)."""
    for library, names in LIBRARIES_TYPED_LITERAL.items():
        owner = api.split(".")[0].split(" ")[0]
        if library in imported and name in names and owner not in imported:
            return names[name]
    if name not in DB_API_LABELS or "sqlite3" in imported:
        return api
    named = sorted(
        {
            t.api
            for t in tightened_parameters()
            if t.distribution and t.called_as == name and t.module.split(".")[0] in imported
        }
    )
    return " or ".join(named) if named else DB_API_LABELS[name]
