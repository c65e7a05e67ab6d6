"""Idioms of real code that uses LiteralString, with pyright's behaviour as the reference.

PEP 675 leaves open how far a checker follows a name to its literal value ("Type Inference":
inferring `Literal[...]` for unannotated names is allowed, not mandated).  Real code relies on
what pyright does: module, class and `Final` constants assigned once from a literal are literal
where they are used, also after an import; `==` and `in (tuple)` narrow a `str` to the literals
it was compared with; an assignment rebinds a name's type from that line on.  These cases hold
every checker to that reference, and the records say where one falls short and why.
"""

import logging
import subprocess
import sys
from typing import Dict, Final, Iterable, List, Optional, Sequence, Union, cast, overload

from typing_extensions import LiteralString, assert_type

from _idiom_constants import IMPORTED_TABLE

logger = logging.getLogger(__name__)


def sink(s: LiteralString) -> None: ...


TABLE = "users"
SCHEMA = "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)"
MESSAGE = "user %s logged in"
FINAL_TABLE: Final = "users"
COLUMNS = ("id", "name")


def module_constants(user: str) -> None:
    sink(TABLE)
    sink(SCHEMA)
    sink(f"SELECT * FROM {TABLE}")
    sink(TABLE.upper())
    sink(FINAL_TABLE)
    sink(IMPORTED_TABLE)
    sink(", ".join(COLUMNS))
    sink(f"SELECT {', '.join(COLUMNS)} FROM {TABLE}")
    logger.info(MESSAGE, user)
    sink(f"SELECT * FROM {TABLE} WHERE name = '{user}'")  # E
    sink(TABLE + user)  # E
    logger.info(MESSAGE + user, user)  # E


class Queries:
    TABLE = "users"
    FINAL: Final = "accounts"

    def select(self, user: str) -> None:
        sink(f"SELECT * FROM {self.TABLE}")
        sink(f"SELECT * FROM {Queries.TABLE}")
        sink(self.FINAL.lower())
        sink(self.TABLE + user)  # E


class Report:
    query: LiteralString = "SELECT 1"

    @property
    def sql(self) -> LiteralString:
        return "SELECT 2"


def attributes_declared_literal(report: Report, user: str) -> None:
    sink(report.query)
    sink(report.sql)
    sink(report.sql + " LIMIT 1")
    report.query = user  # E


def narrowing(key: str, other: str) -> None:
    if key == "name":
        sink(key)
    if key in ("name", "age"):
        sink(key)
    if key in COLUMNS:
        sink(key)
    sink(key)  # E
    if other != "name":
        return
    sink(other)


def joins_and_casts(user: str, parts: List[LiteralString]) -> None:
    sink(", ".join(parts))
    sink(", ".join(["id", "name"]))
    sink(cast(LiteralString, user))
    sink(", ".join([user]))  # E
    sink(", ".join(parts + [user]))  # E


def flow_sensitivity(user: str) -> None:
    y = "a"
    sink(y)
    y = user
    sink(y)  # E
    z = user
    z = "b"
    sink(z)


def loop_targets(items: List[str], literals: List[LiteralString]) -> None:
    pre: LiteralString
    for pre in literals:
        sink(pre)
    for pre in items:  # E
        pass


def union_declared(user: str, data: bytes) -> None:
    ok: Union[LiteralString, bytes] = data
    bad: Union[LiteralString, bytes] = user  # E


# A driver typed like psycopg 3: the query parameter takes literal SQL, bytes, or composition
# objects, and a Template is narrowed away before the query reaches the cursor.
class Template: ...


class Composable:
    def join(self, seq: Iterable["Composable"]) -> "Composed":
        return Composed()


class Composed(Composable): ...


class SQL(Composable):
    def __init__(self, obj: LiteralString) -> None: ...

    def format(self, *args: Composable) -> Composed:
        return Composed()


class Identifier(Composable):
    def __init__(self, *strings: str) -> None: ...


QueryNoTemplate = Union[LiteralString, bytes, SQL, Composed]
Query = Union[QueryNoTemplate, Template]


class Cursor:
    def execute(self, query: QueryNoTemplate, params: Optional[Sequence[object]] = None) -> None: ...

    @overload
    def fetch(self, query: QueryNoTemplate) -> List[object]: ...
    @overload
    def fetch(self, query: QueryNoTemplate, params: Sequence[object]) -> List[object]: ...
    def fetch(
        self, query: QueryNoTemplate, params: Optional[Sequence[object]] = None
    ) -> List[object]:
        return []


def select_sql(table: LiteralString) -> LiteralString:
    return f"SELECT * FROM {table}"


def psycopg_like(cur: Cursor, report: Report, column: str, user: str) -> None:
    cur.execute(SQL("SELECT {} FROM t").format(Identifier(column)))
    cur.execute(SQL(", ").join([Identifier(column), SQL("name")]))
    cur.execute(select_sql("users"))
    cur.execute(b"SELECT 1")
    cur.execute(report.query)
    cur.execute(report.sql, (user,))
    cur.fetch(select_sql("users"))
    cur.fetch(SQL("SELECT {}").format(Identifier(column)), (user,))
    cur.fetch(report.sql)
    cur.execute(f"SELECT * FROM t WHERE name = '{user}'")  # E
    cur.fetch(f"SELECT {column} FROM t")  # E
    SQL(f"SELECT {column} FROM t")  # E
    assert_type(cur.fetch(b"SELECT 1"), List[object])


def run_query(cur: Cursor, query: Query) -> None:
    if isinstance(query, Template):
        return
    cur.execute(query)


def command() -> LiteralString:
    return "ls -l"


def shell_through_overloads(user: str) -> None:
    subprocess.run(command(), shell=True)
    subprocess.run(command() + " /tmp", shell=True)
    subprocess.run(f"ls {user}", shell=True)  # E
    assert_type(subprocess.check_output(command(), shell=True), bytes)


def list_variants(user: str, parts: List[LiteralString]) -> None:
    cols = parts + [user]
    sink(", ".join(cols))  # E
    more: List[LiteralString] = []
    more.append(user)  # E
    sink(", ".join(more))
    sink(", ".join(parts + ["id"]))



# A list started empty and filled by appends: pyright types `parts = []` as list[Unknown], so its
# join passes a LiteralString parameter; a list declared or started with items is list[str].
def empty_list_then_appends(user: str, optional: bool) -> None:
    parts = []
    parts.append("name = ?")
    if optional:
        parts.append("age > ?")
    assert_type(" AND ".join(parts), LiteralString)
    sink(" AND ".join(parts))
    more = []
    more.append("id = ?")
    more.extend(["x = ?", "y = ?"])
    more.insert(0, "z = ?")
    for clause in more:
        sink(clause)
    mixed = []
    mixed.append("name = ?")
    mixed.append(user)
    sink(" AND ".join(mixed))  # E?: pyright joins list[Unknown] to LiteralString whatever was appended; the mypy plugin judges each appended item
    declared: List[str] = []
    declared.append("name = ?")
    sink(" AND ".join(declared))  # E?: pyright types it list[str]; only literals go in, which the mypy plugin's judge proves (literal in fact)
    filled = ["name = ?"]
    filled.append("age > ?")
    sink(" AND ".join(filled))  # E?: the same: typed list[str], literal in fact (buku's query_list)


# A dict of literal strings, looked up by a str key: its values are str (pyright infers
# dict[str, str] for the display too); declare it Dict[str, LiteralString] to pass.
COLUMN_NAMES: Dict[str, str] = {"name": "user_name", "age": "user_age"}
COLUMN_LABELS = {"name": "user_name", "age": "user_age"}
LITERAL_COLUMNS: Dict[str, LiteralString] = {"name": "user_name", "age": "user_age"}


def dict_of_literals_by_key(key: str) -> None:
    assert_type(COLUMN_NAMES[key], str)
    sink(COLUMN_NAMES[key])  # E
    sink(COLUMN_LABELS[key])  # E
    sink(COLUMN_NAMES["name"])  # E
    sink(f"SELECT {COLUMN_NAMES[key]} FROM t")  # E
    local = {"name": "user_name", "age": "user_age"}
    sink(local[key])  # E
    sink(LITERAL_COLUMNS[key])


def format_markup(template: LiteralString, *args: object) -> str:
    return template


# A name read in the value of its own reassignment is the value it had before
# (djangorestframework's `snippet = format_html(snippet, ...)`).
def reassigned_from_itself(user: str) -> None:
    snippet = "<li>{}</li>"
    snippet = format_markup(snippet, user)
    query = "SELECT 1"
    query = format_markup(query) + format_markup(
        query
    )
    other = user
    other = format_markup(other, user)  # E


# `a and "x" or "y"` is "x" or "y" whatever `a` is: when `a` is falsy, so is `a and "x"`.
def chosen_by_truthiness(flag: bool, number: int, user: str, lit: LiteralString) -> None:
    sink(flag and "1" or "0")
    sink(number and "1" or "0")
    sink(user and "1" or "0")
    sink("automerge=%s" % (flag and "1" or "0"))
    sink(lit or "default")
    sink(flag and lit or "0")
    sink("a" or user)
    sink(user or "default")  # E
    sink(flag and user or "0")  # E


# A list display of literals where a shell may run it (beets' `shell=os.name == "nt"`).
def literal_argv_with_a_computed_shell(shell: bool) -> None:
    subprocess.run(["ffprobe", "-version"], capture_output=True, shell=shell)
