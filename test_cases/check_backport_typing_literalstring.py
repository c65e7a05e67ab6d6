"""Backport equivalence: `LiteralString` from typing_literalstring, typing_extensions or typing.

check_backport_typing_literalstring.py, check_backport_typing_extensions.py and
check_backport_typing_py311.py (typing has it from Python 3.11 on) hold the same cases on the
same lines and differ only in the import of `LiteralString`: a checker must flag the same lines.
"""

from typing import List, TypeVar

from typing_extensions import assert_type
from typing_literalstring import LiteralString

TLit = TypeVar("TLit", bound=LiteralString)


def sink(s: LiteralString) -> None: ...


def same_literal(s: TLit) -> TLit:
    return s


def cases(lit: LiteralString, user: str, lits: List[LiteralString]) -> None:
    sink("SELECT 1")
    sink(lit + " LIMIT 1")
    sink(user)  # E
    declared: LiteralString = user  # E
    sink(f"SELECT {lit}")
    sink(f"SELECT {user}")  # E
    sink(", ".join(lits))
    sink(", ".join([lit, user]))  # E
    assert_type(same_literal(lit), LiteralString)
    same_literal(user)  # E
    literals: List[LiteralString] = ["a", lit]
    mixed: List[LiteralString] = ["a", user]  # E
    assert_type(lit.upper(), LiteralString)
    assert_type(user.upper(), str)
