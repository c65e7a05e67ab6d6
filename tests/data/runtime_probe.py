"""Runtime checks of the backport, run by each interpreter under test in a fresh venv.

Standalone on purpose: the venv holds only the wheel and its declared dependencies, no pytest.
Prints one JSON object mapping each check's name to "ok" or the reason it failed.
"""

import copy
import json
import pickle
import sys
import traceback
import typing

import typing_literalstring
from typing_literalstring import LiteralString

CHECKS = {}


def check(func):
    CHECKS[func.__name__] = func
    return func


def raises_type_error(action):
    try:
        action()
    except TypeError:
        return
    raise AssertionError("no TypeError raised")


@check
def identity():
    if sys.version_info >= (3, 11):
        assert LiteralString is typing.LiteralString
    else:
        import typing_extensions

        assert LiteralString is typing_extensions.LiteralString


@check
def all_exports():
    assert typing_literalstring.__all__ == ["LiteralString"]
    assert typing_literalstring.LiteralString is LiteralString


@check
def typevar_bound():
    t = typing.TypeVar("t", bound=LiteralString)
    assert t.__bound__ is LiteralString


@check
def typing_list():
    alias = typing.List[LiteralString]
    assert typing.get_args(alias) == (LiteralString,)


@check
def builtin_list():
    if sys.version_info < (3, 9):
        return  # list[...] is not subscriptable at runtime before 3.9
    alias = list[LiteralString]
    assert alias.__args__ == (LiteralString,)


@check
def get_type_hints():
    def run(sql: LiteralString) -> LiteralString:
        return sql

    hints = typing.get_type_hints(run)
    assert hints == {"sql": LiteralString, "return": LiteralString}, hints


@check
def get_type_hints_string_annotation():
    def run(sql: "LiteralString") -> None:
        pass

    hints = typing.get_type_hints(run)
    assert hints["sql"] is LiteralString, hints


@check
def isinstance_raises():
    raises_type_error(lambda: isinstance("x", LiteralString))


@check
def issubclass_raises():
    raises_type_error(lambda: issubclass(str, LiteralString))


@check
def call_raises():
    raises_type_error(lambda: LiteralString())


@check
def subclass_raises():
    def make_subclass():
        class Sub(LiteralString):
            pass

    raises_type_error(make_subclass)


@check
def copy_keeps_identity():
    assert copy.copy(LiteralString) is LiteralString
    assert copy.deepcopy(LiteralString) is LiteralString


@check
def pickle_keeps_identity():
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(LiteralString, protocol)) is LiteralString


@check
def repr_names_the_form():
    expected = (
        "typing.LiteralString"
        if sys.version_info >= (3, 11)
        else ("typing_extensions.LiteralString")
    )
    assert repr(LiteralString) == expected, repr(LiteralString)


@check
def sql_helpers_resist_injection():
    import sqlite3

    from typing_literalstring.sql import identifier, pick, placeholders

    payload = 'x"; DROP TABLE victims; --'
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE victims (id INTEGER)")
    db.execute("CREATE TABLE " + identifier(payload) + " (id INTEGER)")
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert tables == {"victims", payload}, tables
    db.executemany("INSERT INTO victims VALUES (?)", [(1,), (2,), (3,)])
    query = "SELECT count(*) FROM victims WHERE id IN (" + placeholders(2) + ")"
    assert db.execute(query, (1, 3)).fetchone() == (2,)
    assert pick("id", ("id", "name")) == "id"
    try:
        pick(payload, ("id", "name"))
    except ValueError:
        pass
    else:
        raise AssertionError("pick let a value outside the allow-list through")


@check
def shell_helpers_resist_injection():
    import os
    import subprocess
    import tempfile

    from typing_literalstring.shell import join, quote

    if os.name != "posix":
        return  # the helpers quote for POSIX shells only
    payloads = ["$(touch pwned)", "; touch pwned", "'", '"', "`touch pwned`"]
    with tempfile.TemporaryDirectory() as folder:
        out = subprocess.check_output(
            "printf '%s\\n' " + join(payloads) + " " + quote("a b"), shell=True, cwd=folder
        )
        assert out.decode().splitlines() == [*payloads, "a b"], out
        assert os.listdir(folder) == []


def main():
    results = {}
    for name, func in CHECKS.items():
        try:
            func()
        except Exception:
            results[name] = traceback.format_exc(limit=2)
        else:
            results[name] = "ok"
    print(json.dumps({"python": sys.version.split()[0], "results": results}))


main()
