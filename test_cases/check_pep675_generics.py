"""PEP 675, "Interaction with TypeVars and Generics" and "Interactions with Overloads".

A TypeVar bound to LiteralString accepts literal strings and keeps their precise type; a plain
`str` violates the bound.  LiteralString is an ordinary type argument: `List[LiteralString]`
holds literal strings only (and, `List` being invariant, is not a `List[str]`), and so does a
user generic class specialised with it.  Overloads need no special rule: a LiteralString overload
is chosen for a literal argument, a later `str` overload for a non-literal one.
"""

from typing import Dict, Generic, List, Sequence, TypeVar, overload

from typing_extensions import Literal, LiteralString, assert_type

T = TypeVar("T")
TLit = TypeVar("TLit", bound=LiteralString)


def sink(s: LiteralString) -> None: ...


def same_literal(s: TLit) -> TLit:
    return s


def first(items: List[T]) -> T:
    return items[0]


class Box(Generic[T]):
    def __init__(self, content: T) -> None:
        self.content = content


class LiteralBox(Generic[TLit]):
    def __init__(self, content: TLit) -> None:
        self.content = content


def bound_typevar(lit: LiteralString, user: str, greeting: Literal["hi"]) -> None:
    assert_type(same_literal(greeting), Literal["hi"])
    assert_type(same_literal(lit), LiteralString)
    sink(same_literal("SELECT 1"))
    sink(same_literal(lit) + " LIMIT 1")
    same_literal(user)  # E
    same_literal(lit + user)  # E
    same_literal(f"SELECT {user}")  # E
    LiteralBox(lit)
    LiteralBox("SELECT 1")
    LiteralBox(user)  # E
    assert_type(LiteralBox(lit).content, LiteralString)
    not_literal: LiteralBox[str]  # E


def list_type_argument(
    lit: LiteralString, user: str, lits: List[LiteralString], strs: List[str]
) -> None:
    literals: List[LiteralString] = ["spam", "eggs", lit]
    mixed: List[LiteralString] = ["spam", user]  # E
    copied: List[LiteralString] = lits
    from_strs: List[LiteralString] = strs  # E
    as_str_list: List[str] = lits  # E: List is invariant, and LiteralString is a proper subtype
    as_sequence: Sequence[str] = lits
    columns: Dict[LiteralString, str] = {"name": user}
    user_keys: Dict[LiteralString, str] = {user: "name"}  # E
    lits.append("spam")
    lits.append(user)  # E
    assert_type(lits[0], LiteralString)
    assert_type(first(lits), LiteralString)
    assert_type(first(strs), str)
    sink(first(lits))
    sink(first(strs))  # E


def generic_class(lit: LiteralString, user: str) -> None:
    box: Box[LiteralString] = Box(lit)
    literal_box: Box[LiteralString] = Box("SELECT 1")
    user_box: Box[LiteralString] = Box(user)  # E
    Box[LiteralString](lit)
    Box[LiteralString](user)  # E
    assert_type(box.content, LiteralString)
    sink(box.content)
    box.content = "SELECT 2"
    box.content = user  # E
    str_box: Box[str] = Box(lit)
    sink(str_box.content)  # E


@overload
def quote(value: LiteralString) -> LiteralString: ...
@overload
def quote(value: str) -> str: ...
def quote(value: str) -> str:
    return "'" + value + "'"


class Column: ...


class TrustedColumn(Column): ...


class KeyColumn(TrustedColumn): ...


@overload
def column(name: Literal["id"]) -> KeyColumn: ...
@overload
def column(name: LiteralString) -> TrustedColumn: ...
@overload
def column(name: str) -> Column: ...
def column(name: str) -> Column:
    return Column()


def overloads(lit: LiteralString, user: str) -> None:
    assert_type(quote(lit), LiteralString)
    assert_type(quote("SELECT"), LiteralString)
    assert_type(quote(lit + " LIMIT 1"), LiteralString)
    assert_type(quote(user), str)
    assert_type(quote(lit + user), str)
    sink(quote(lit))
    sink(quote(user))  # E
    assert_type(column("id"), KeyColumn)
    assert_type(column("name"), TrustedColumn)
    assert_type(column(lit), TrustedColumn)
    assert_type(column(user), Column)
