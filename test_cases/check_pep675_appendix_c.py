"""PEP 675, Appendix C: the `str` methods and operators that preserve LiteralString.

For each one: all-literal inputs give LiteralString (or a list or tuple of it), and a
non-literal `str` in any string-typed position (the receiver or an argument) gives `str`.
The list is exhaustive, so a `str` method or operator missing from it returns plain `str`.
Typeshed later fixed two typos of the list (`lower`'s fallback returns `str`; `__mod__` with
literal operands returns LiteralString) and these cases follow the fix.  Where typeshed and the
PEP still differ, the case states the PEP's rule, in a `# PEP rule:` comment.
"""

import sys
from typing import Iterator, List, Tuple

from typing_extensions import LiteralString, assert_type


def case_and_whitespace(lit: LiteralString, user: str) -> None:
    assert_type(lit.capitalize(), LiteralString)
    assert_type(user.capitalize(), str)
    assert_type(lit.casefold(), LiteralString)
    assert_type(user.casefold(), str)
    assert_type(lit.lower(), LiteralString)
    assert_type(user.lower(), str)
    assert_type(lit.upper(), LiteralString)
    assert_type(user.upper(), str)
    assert_type(lit.swapcase(), LiteralString)
    assert_type(user.swapcase(), str)
    assert_type(lit.title(), LiteralString)
    assert_type(user.title(), str)
    assert_type(lit.expandtabs(), LiteralString)
    assert_type(lit.expandtabs(4), LiteralString)
    assert_type(user.expandtabs(4), str)
    assert_type(lit.zfill(8), LiteralString)
    assert_type(user.zfill(8), str)


def padding(lit: LiteralString, user: str) -> None:
    assert_type(lit.center(20), LiteralString)
    assert_type(lit.center(20, "*"), LiteralString)
    assert_type(user.center(20, "*"), str)
    assert_type(lit.center(20, user), str)
    assert_type(lit.ljust(20), LiteralString)
    assert_type(lit.ljust(20, "."), LiteralString)
    assert_type(user.ljust(20, "."), str)
    assert_type(lit.ljust(20, user), str)
    assert_type(lit.rjust(20), LiteralString)
    assert_type(lit.rjust(20, "."), LiteralString)
    assert_type(user.rjust(20, "."), str)
    assert_type(lit.rjust(20, user), str)


def stripping(lit: LiteralString, user: str) -> None:
    assert_type(lit.strip(), LiteralString)
    assert_type(lit.strip(None), LiteralString)
    assert_type(lit.strip(" ;"), LiteralString)
    assert_type(user.strip(" ;"), str)
    assert_type(lit.strip(user), str)
    assert_type(lit.lstrip(), LiteralString)
    assert_type(lit.lstrip(" ;"), LiteralString)
    assert_type(user.lstrip(" ;"), str)
    assert_type(lit.lstrip(user), str)
    assert_type(lit.rstrip(), LiteralString)
    assert_type(lit.rstrip(" ;"), LiteralString)
    assert_type(user.rstrip(" ;"), str)
    assert_type(lit.rstrip(user), str)


def prefixes(lit: LiteralString, user: str) -> None:
    if sys.version_info >= (3, 9):
        assert_type(lit.removeprefix("SELECT "), LiteralString)
        assert_type(user.removeprefix("SELECT "), str)
        assert_type(lit.removeprefix(user), str)
        assert_type(lit.removesuffix(";"), LiteralString)
        assert_type(user.removesuffix(";"), str)
        assert_type(lit.removesuffix(user), str)


def replacing(lit: LiteralString, user: str) -> None:
    assert_type(lit.replace("?", "%s"), LiteralString)
    assert_type(lit.replace("?", "%s", 1), LiteralString)
    assert_type(user.replace("?", "%s"), str)
    assert_type(lit.replace(user, "%s"), str)
    assert_type(lit.replace("?", user), str)


def partitioning(lit: LiteralString, user: str) -> None:
    assert_type(lit.partition(" "), Tuple[LiteralString, LiteralString, LiteralString])
    assert_type(user.partition(" "), Tuple[str, str, str])
    assert_type(lit.partition(user), Tuple[str, str, str])
    assert_type(lit.rpartition(" "), Tuple[LiteralString, LiteralString, LiteralString])
    assert_type(user.rpartition(" "), Tuple[str, str, str])
    assert_type(lit.rpartition(user), Tuple[str, str, str])


def splitting(lit: LiteralString, user: str) -> None:
    assert_type(lit.split(), List[LiteralString])
    assert_type(lit.split(None, 2), List[LiteralString])
    assert_type(lit.split(","), List[LiteralString])
    assert_type(lit.split(sep=",", maxsplit=1), List[LiteralString])
    assert_type(user.split(","), List[str])
    assert_type(lit.split(user), List[str])
    assert_type(lit.rsplit(), List[LiteralString])
    assert_type(lit.rsplit(","), List[LiteralString])
    assert_type(user.rsplit(","), List[str])
    assert_type(lit.rsplit(user), List[str])
    assert_type(lit.splitlines(), List[LiteralString])
    assert_type(lit.splitlines(True), List[LiteralString])
    assert_type(user.splitlines(), List[str])


def formatting(lit: LiteralString, user: str, count: int) -> None:
    assert_type("{}-{}".format(lit, "x"), LiteralString)
    assert_type("{a}-{b}".format(a=lit, b="x"), LiteralString)
    assert_type(lit.format(), LiteralString)
    assert_type(user.format(lit), str)
    assert_type("{}-{}".format(lit, user), str)
    assert_type("{a}-{b}".format(a=lit, b=user), str)
    assert_type("{}".format(count), str)


def joining(
    lit: LiteralString,
    user: str,
    lits: List[LiteralString],
    strs: List[str],
    lit_iter: Iterator[LiteralString],
) -> None:
    assert_type(", ".join(["a", "b"]), LiteralString)
    assert_type(lit.join(lits), LiteralString)
    assert_type(", ".join((lit, "b")), LiteralString)
    assert_type(", ".join(c.upper() for c in lits), LiteralString)
    assert_type(", ".join(lit_iter), LiteralString)
    assert_type(user.join(lits), str)
    assert_type(", ".join(strs), str)
    assert_type(", ".join(["a", user]), str)
    assert_type(", ".join((lit, user)), str)
    assert_type(", ".join(s for s in strs), str)


def operators(lit: LiteralString, other: LiteralString, user: str, count: int) -> None:
    assert_type(lit + other, LiteralString)
    assert_type(lit + "x", LiteralString)
    assert_type("x" + lit, LiteralString)
    assert_type(lit + user, str)
    assert_type(user + lit, str)
    assert_type(lit * 3, LiteralString)
    assert_type(lit * count, LiteralString)
    assert_type(user * 3, str)
    assert_type(3 * lit, LiteralString)
    assert_type(count * lit, LiteralString)
    assert_type(3 * user, str)
    assert_type(lit % other, LiteralString)
    assert_type("%s = %s" % (lit, "?"), LiteralString)
    assert_type(user % other, str)
    assert_type(lit % user, str)
    assert_type("%s = %s" % (lit, user), str)
    assert_type("%d" % count, str)


def f_strings(lit: LiteralString, user: str) -> None:
    assert_type(f"{lit:>10}", LiteralString)
    assert_type(f"{lit!r}", LiteralString)
    assert_type(f"{lit!r:^12}", LiteralString)
    assert_type(f"{user:>10}", str)
    assert_type(f"{user!r}", str)


def indexing_and_iteration(lit: LiteralString, user: str) -> None:
    assert_type(lit[0], str)  # PEP rule: __getitem__ is not in Appendix C, so it returns str
    assert_type(lit[1:3], str)  # PEP rule: __getitem__ is not in Appendix C, so it returns str
    assert_type(user[0], str)
    assert_type(user[1:3], str)
    for char in lit:
        assert_type(char, str)  # PEP rule: Appendix C's __iter__ returns Iterator[str] always
    for ch in user:
        assert_type(ch, str)


def str_and_repr(lit: LiteralString, user: str) -> None:
    assert_type(lit.__str__(), LiteralString)  # PEP rule: Appendix C overloads __str__
    assert_type(lit.__repr__(), LiteralString)  # PEP rule: Appendix C overloads __repr__
    assert_type(user.__str__(), str)
    assert_type(user.__repr__(), str)
