"""PEP 675, "Type Inference" and "Examples": which expressions are LiteralString.

A literal string, and what `+`, `+=`, `join`, f-strings, `str.format` and conditional expressions
build from literal strings only, is LiteralString; one non-literal `str` (or another non-string
value) in a string position makes the result plain `str`.  LiteralString is a subtype of `str`,
literal types of other kinds are not LiteralString, and the special form may not be nested in
`Literal[...]` ("Valid Locations").
"""

from typing import List, Tuple

from typing_extensions import Literal, LiteralString, assert_type


def sink(s: LiteralString) -> None: ...


def compatibility(
    lit: LiteralString,
    user: str,
    spam: Literal["spam"],
    spam_or_eggs: Literal["spam", "eggs"],
    count: int,
    seven: Literal[7],
) -> None:
    sink("a plain literal")
    sink(spam)
    sink(spam_or_eggs)
    sink(lit)
    sink(user)  # E
    sink(count)  # E
    sink(seven)  # E
    sink(b"bytes literal")  # E
    widened: str = lit
    declared: LiteralString = "a plain literal"
    from_literal_type: LiteralString = spam
    from_literal_union: LiteralString = spam_or_eggs
    from_user: LiteralString = user  # E
    from_int: LiteralString = seven  # E
    assert_type(lit.startswith("SELECT"), bool)
    assert_type(lit.count("a"), int)


def unannotated_variables(user: str) -> None:
    query = "SELECT 1"
    sink(query)  # E?: the PEP allows, not mandates, Literal inference for unannotated names
    tainted = "SELECT " + user
    sink(tainted)  # E


def addition(lit: LiteralString, other: LiteralString, user: str) -> None:
    sink("SELECT" + " 1")
    sink(lit + " LIMIT 1")
    sink("SELECT " + lit)
    sink(lit + other)
    sink(lit + user)  # E
    sink(user + lit)  # E
    sink("SELECT " + user)  # E
    assert_type(lit + " LIMIT 1", LiteralString)
    assert_type("SELECT " + lit, LiteralString)
    assert_type(lit + other, LiteralString)
    assert_type(lit + user, str)
    assert_type(user + lit, str)
    assert_type("SELECT " + user, str)


def inplace_addition(query: LiteralString, other: LiteralString, user: str, flag: bool) -> None:
    if flag:
        query += " LIMIT 1"
    assert_type(query, LiteralString)
    query += other
    assert_type(query, LiteralString)
    sink(query)
    query += user  # E


def inplace_addition_of_str(text: str, lit: LiteralString, user: str) -> None:
    text += lit
    assert_type(text, str)
    sink(text)  # E


def joining(
    lit: LiteralString,
    other: LiteralString,
    user: str,
    lits: List[LiteralString],
    strs: List[str],
    pair: Tuple[LiteralString, LiteralString],
) -> None:
    sink(", ".join(["spam", "eggs"]))
    sink(lit.join(["spam", "eggs"]))
    sink(lit.join([lit, other]))
    sink(", ".join(lits))
    sink(", ".join(pair))
    sink(", ".join(c for c in lits))
    sink(", ".join("?" for _ in strs))
    sink(user.join(["spam", "eggs"]))  # E
    sink(user.join([lit, other]))  # E
    sink(", ".join(strs))  # E
    sink(", ".join([lit, user]))  # E
    sink(", ".join((lit, user)))  # E
    sink(", ".join(s for s in strs))  # E
    assert_type(", ".join(lits), LiteralString)
    assert_type(", ".join(pair), LiteralString)
    assert_type(", ".join(c for c in lits), LiteralString)
    assert_type(user.join(lits), str)
    assert_type(", ".join(strs), str)
    assert_type(", ".join([lit, user]), str)


def f_strings(
    lit: LiteralString, spec: LiteralString, user: str, count: int, width: int, seven: Literal[7]
) -> None:
    sink(f"no replacement field")
    sink(f"SELECT {lit}")
    sink(f"{lit}, {lit}")
    sink(f"{'a nested literal'}")
    sink(f"{lit:>10}")
    sink(f"{lit!r}")
    sink(f"{lit:{spec}}")
    sink(f"SELECT {user}")  # E
    sink(f"{user:>10}")  # E
    sink(f"{user!r}")  # E
    sink(f"{lit:{user}}")  # E
    sink(f"{lit:>{width}}")  # E
    sink(f"LIMIT {count}")  # E
    sink(f"LIMIT {seven}")  # E
    assert_type(f"SELECT {lit}", LiteralString)
    assert_type(f"{lit:>10}", LiteralString)
    assert_type(f"{lit!r}", LiteralString)
    assert_type(f"SELECT {user}", str)
    assert_type(f"{user!r}", str)
    assert_type(f"LIMIT {count}", str)


def format_method(lit: LiteralString, user: str, count: int) -> None:
    sink("SELECT {}".format(lit))
    sink("{col} = {val}".format(col=lit, val="?"))
    sink(lit.format("x"))
    sink("SELECT {}".format(user))  # E
    sink("{col} = ?".format(col=user))  # E
    sink(user.format(lit))  # E
    sink("LIMIT {}".format(count))  # E
    assert_type("SELECT {}".format(lit), LiteralString)
    assert_type("{col} = ?".format(col=lit), LiteralString)
    assert_type("SELECT {}".format(user), str)
    assert_type(user.format(lit), str)
    assert_type("LIMIT {}".format(count), str)


def conditional_expressions(lit: LiteralString, user: str, flag: bool) -> None:
    sink("ASC" if flag else "DESC")
    sink("ASC" if flag else lit)
    sink("ASC" if flag else user)  # E
    sink(lit if flag else user)  # E
    sink("ORDER BY " + ("name" if flag else "id"))
    sink("ORDER BY " + ("name" if flag else user))  # E


def pick(flag: bool) -> LiteralString:
    return "ASC" if flag else "DESC"


def pick_or_given(lit: LiteralString, flag: bool) -> LiteralString:
    return "ASC" if flag else lit


def pick_or_user(user: str, flag: bool) -> LiteralString:
    return "ASC" if flag else user  # E


def branches(lit: LiteralString, flag: bool) -> LiteralString:
    asc: Literal["ASC"] = "ASC"
    result: LiteralString
    if flag:
        result = asc
    else:
        result = lit
    return result


def branches_with_user(user: str, flag: bool) -> LiteralString:
    result: str = "ASC"
    if flag:
        result = user
    return result  # E


def with_limit(query: LiteralString) -> LiteralString:
    return query + " LIMIT 1"


def returns_user(user: str) -> LiteralString:
    return user  # E


def returns_composed(query: LiteralString, user: str) -> LiteralString:
    return query + user  # E


def calls(query: LiteralString, user: str) -> None:
    sink(with_limit(query))
    sink(with_limit("SELECT 1"))
    with_limit(user)  # E
    assert_type(with_limit(query), LiteralString)


def narrowing(user: str) -> None:
    if user == "admin":
        sink(user)  # E?: the PEP allows refining `str` to Literal["admin"] by `==`, not requires it
    sink(user)  # E


class Statement:
    text: LiteralString

    def __init__(self, text: LiteralString) -> None:
        self.text = text


def locations(lit: LiteralString, user: str) -> None:
    Statement("SELECT 1")
    Statement(user)  # E
    statement = Statement(lit)
    assert_type(statement.text, LiteralString)
    statement.text = user  # E
    bad_union: Literal["hello", LiteralString]  # E
    bad_nesting: Literal[LiteralString]  # E
