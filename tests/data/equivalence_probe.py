# The import of LiteralString is replaced by each import under test; every `# E` line must be
# an error for a checker that enforces LiteralString, whichever module LiteralString comes from.
from typing_literalstring import LiteralString
from typing import Generic, List, TypeVar

TLit = TypeVar("TLit", bound=LiteralString)
T = TypeVar("T")


def sink(sql: LiteralString) -> None: ...


def identity(value: TLit) -> TLit:
    return value


class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item


def accepted(literal: LiteralString, parts: List[LiteralString], flag: bool) -> None:
    sink("SELECT * FROM users")
    sink("SELECT " + "1")
    sink(literal + " LIMIT 1")
    sink(f"SELECT {literal}")
    sink(", ".join(parts))
    sink("a" if flag else "b")
    sink(literal.upper())
    sink(literal.strip())
    sink("{} = ?".format(literal))
    sink(identity("x"))
    box: Box[LiteralString] = Box("x")
    sink(box.item)
    names: List[LiteralString] = ["id", "name"]
    sink(names[0])


def rejected(user: str, literal: LiteralString) -> None:
    sink(user)  # E
    sink(f"SELECT {user}")  # E
    sink("SELECT " + user)  # E
    sink(literal + user)  # E
    sink("{} = ?".format(user))  # E
    sink(user.upper())  # E
    sink(", ".join([literal, user]))  # E
    identity(user)  # E
    names: List[LiteralString] = ["id", user]  # E
    bad: LiteralString = user  # E
