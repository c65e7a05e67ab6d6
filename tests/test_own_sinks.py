"""Telling our stubs' errors from the messages alone, so that most files are checked once.

The messages are the checkers' own, printed by pyright 1.1.414, basedpyright 1.40.2, ty 1.0.0,
zuban 0.11.1, pyrefly 1.5.0 and mypy 2.4.1 with our plugin on sqlite-utils 4.2.1, psycopg 3.3.9
and a shell module; tests/test_check_project.py runs the checkers themselves.
"""

from __future__ import annotations

import ast

import pytest

from typing_literalstring.analysis.own_sinks import (
    Verdict,
    judge,
    judge_call,
    literal_string_functions,
    tightened_parameters,
)
from typing_literalstring.checkers import Diagnostic


def _error(message: str, code: str = "") -> Diagnostic:
    return Diagnostic("app.py", 3, 5, "error", message, code)


OURS = [
    (
        "pyright",
        "execute",
        'Argument of type "str" cannot be assigned to parameter "sql" of type "LiteralString" '
        'in function "execute"\n  "str" is not assignable to "LiteralString"',
        "reportArgumentType",
    ),
    (
        "ty",
        "execute",
        "Argument to bound method `Connection.execute` is incorrect: Expected `LiteralString`, "
        "found `str`",
        "invalid-argument-type",
    ),
    (
        "ty",
        "create_subprocess_shell",
        "Argument to function `create_subprocess_shell` is incorrect: Expected `LiteralString`, "
        "found `str`",
        "invalid-argument-type",
    ),
    (
        "pyrefly",
        "execute",
        "Argument `str` is not assignable to parameter `sql` with type `LiteralString` in "
        "function `sqlite3.Connection.execute`",
        "bad-argument-type",
    ),
    (
        "pyrefly",
        "create_subprocess_shell",
        "Argument `str` is not assignable to parameter `cmd` with type `LiteralString` in "
        "function `asyncio.subprocess.create_subprocess_shell`",
        "bad-argument-type",
    ),
    (
        "zuban",
        "Popen",
        'Argument 1 to "Popen" has incompatible type "str"; expected '
        '"LiteralString | Sequence[LiteralString]"',
        "arg-type",
    ),
    (
        "mypy+plugin",
        "execute",
        'Argument 1 to "execute" of "Connection" has incompatible type "str"; expected '
        '"LiteralString"',
        "literal-string",
    ),
]


@pytest.mark.parametrize(("checker", "called_as", "message", "code"), OURS)
def test_errors_that_name_our_tightened_parameter_are_ours(
    checker: str, called_as: str, message: str, code: str
) -> None:
    assert judge(_error(message, code), called_as, checker) is Verdict.OURS


@pytest.mark.parametrize(("checker", "called_as", "message", "code"), OURS)
def test_a_project_function_of_the_same_name_taking_literal_string_leaves_it_unsure(
    checker: str, called_as: str, message: str, code: str
) -> None:
    assert judge(_error(message, code), called_as, checker, {called_as}) is Verdict.UNSURE


@pytest.mark.parametrize(
    ("checker", "message", "code"),
    [
        (  # psycopg 3: the same method name, its own union type
            "pyright",
            'Argument of type "str" cannot be assigned to parameter "query" of type '
            '"LiteralString | bytes | SQL | Composed | Template" in function "execute"',
            "reportArgumentType",
        ),
        (
            "pyrefly",
            "Argument `str` is not assignable to parameter `query` with type `Query` in function "
            "`psycopg.cursor.Cursor.execute`",
            "bad-argument-type",
        ),
        (  # a helper called inside the sink's arguments
            "ty",
            "Argument to function `build` is incorrect: Expected `LiteralString`, found `str`",
            "invalid-argument-type",
        ),
        (  # not about LiteralString at all
            "pyright",
            'Argument of type "int" cannot be assigned to parameter "parameters" of type '
            '"_Parameters" in function "execute"',
            "reportArgumentType",
        ),
    ],
)
def test_other_errors_at_a_sink_call_are_not_ours(checker: str, message: str, code: str) -> None:
    assert judge(_error(message, code), "execute", checker) is Verdict.NOT_OURS


@pytest.mark.parametrize(
    ("checker", "message", "code"),
    [
        ("pyright", 'No overloads for "run" match the provided arguments', "reportCallIssue"),
        ("ty", "No overload of function `run` matches arguments", "no-matching-overload"),
        ("zuban", 'No overload variant of "run" matches argument types', "call-overload"),
    ],
)
def test_no_matching_overload_is_left_to_the_comparison(
    checker: str, message: str, code: str
) -> None:
    assert judge(_error(message, code), "run", checker) is Verdict.UNSURE


def test_every_tightened_parameter_is_known_by_module_and_class() -> None:
    known = {(t.module, t.owner, t.function, t.parameter) for t in tightened_parameters()}
    assert ("sqlite3", "Connection", "execute", "sql") in known
    assert ("subprocess", "Popen", "__init__", "args") in known
    assert ("asyncio.subprocess", "", "create_subprocess_shell", "cmd") in known
    assert ("logging", "Logger", "info", "msg") in known


def test_project_functions_taking_literal_string_are_found() -> None:
    source = (
        "from typing_extensions import LiteralString\n"
        "def execute(sql: LiteralString) -> None: ...\n"
        "class Db:\n"
        "    def run(self, *, script: 'LiteralString') -> None: ...\n"
        "def other(sql: str) -> None: ...\n"
    )
    assert literal_string_functions(ast.parse(source), source) == {"execute", "run"}


_NO_OVERLOADS = _error('No overloads for "run" match the provided arguments', "reportCallIssue")
_SHELL_REFUSED = _error(
    'Argument of type "Literal[True]" cannot be assigned to parameter "shell" of type '
    '"Literal[False]" in function "run"',
    "reportArgumentType",
)
_CWD = _error(
    'Argument of type "Literal[123]" cannot be assigned to parameter "cwd" of type '
    '"StrOrBytesPath | None" in function "run"',
    "reportArgumentType",
)


def test_our_shell_overload_refusing_shell_true_settles_the_call() -> None:
    """pyright lists every failing argument of the best overload; `shell: Literal[False]` is
    only in our overlay (the stock stub says `shell: bool`)."""
    verdicts = judge_call([_NO_OVERLOADS, _SHELL_REFUSED, _CWD], "run", "pyright")
    assert verdicts == [Verdict.OURS, Verdict.OURS, Verdict.NOT_OURS]


def test_without_the_shell_refusal_the_call_stays_unsure() -> None:
    # `subprocess.run("ls", shell=True, cwd=123)`: the tightened overload matched best.
    assert judge_call([_NO_OVERLOADS, _CWD], "run", "pyright") == [
        Verdict.UNSURE,
        Verdict.NOT_OURS,
    ]
    # Not a shell sink: the same words prove nothing.
    assert judge_call([_NO_OVERLOADS, _SHELL_REFUSED], "execute", "pyright")[0] is Verdict.UNSURE
