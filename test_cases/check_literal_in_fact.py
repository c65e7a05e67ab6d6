"""Text literal in fact: built only from literal strings by idioms that checkers type `str`.

The markers state the fact, not any checker's inference: no input can change the text of an
unmarked sink argument below, so PEP 675's promise holds there, while `# E` lines can carry
input.  One judge proves the unmarked lines, typing_literalstring/core/literal_idioms.py (its
docstring has the rules and their limits), shared by `check`'s analysis and the mypy plugin,
so mypy+plugin matches every marker; each checker's own inference stops short of some of
these idioms, which its record lists with the reason.
"""

from typing import Dict, List, Optional

from typing_extensions import LiteralString


def sink(s: LiteralString) -> None: ...


TABLES = ("events", "alarms")
TABLE_LIST = ["events", "alarms"]


# The markers of an IN list: one "?" per value.
def in_list_markers(ids: List[int], n: int, user: str, sep: str) -> None:
    sink(f"SELECT * FROM t WHERE id IN ({', '.join(['?'] * len(ids))})")
    sink("SELECT * FROM t WHERE id IN ({})".format(",".join("?" * n)))
    sink("SELECT * FROM t WHERE id IN (%s)" % ", ".join("?" for _ in ids))
    sink("SELECT * FROM t WHERE id IN (%s)" % ", ".join(["?" for _ in ids]))
    marks = ", ".join(["?"] * len(ids))
    sink(f"SELECT * FROM t WHERE id IN ({marks})")
    sink(sep.join(["?"] * n))  # E
    sink(", ".join([user] * n))  # E
    sink(user * n)  # E


# A loop over table names: a display, a module tuple, or a local list nothing changes.
def loops_over_table_names(user: str, given: List[str]) -> None:
    for table in ["events", "alarms"]:
        sink(f"DELETE FROM {table} WHERE id = ?")
    for name in TABLES:
        sink(f"DELETE FROM {name} WHERE id = ?")
    local = ["events", "alarms"]
    for each in local:
        sink(f"DELETE FROM {each} WHERE id = ?")
    for listed in TABLE_LIST:
        sink(f"DELETE FROM {listed}")  # E
    changed = ["events", "alarms"]
    changed.append(user)
    for entry in changed:
        sink(f"DELETE FROM {entry}")  # E
    for other in given:
        sink(f"DELETE FROM {other}")  # E


# Text grown by `+=` and cut by slicing, with or without a `str` annotation.
def grown_and_sliced(user: str, flags: List[str]) -> None:
    query = "UPDATE t SET"
    query += " a = ?,"
    query += " b = ?,"
    query = query[:-1] + " WHERE id = ?"
    sink(query)
    annotated: str = "UPDATE t SET"
    annotated += " a = ?,"
    annotated = annotated[:-1] + " WHERE id = ?"
    sink(annotated)
    columns = "SELECT "
    for column in ("a", "b"):
        if column in flags:
            columns += column + ", "
    sink(columns[:-2] + " FROM t")
    grown = "SELECT"
    grown += user
    sink(grown)  # E
    rebound = "SELECT 1"
    rebound = rebound + user
    sink(rebound)  # E


# A lookup in a dict display of literal strings: one of its values, whatever the key
# (djangorestframework's `'<code>%s</code>' % {True: 'true', False: 'false', None: 'null'}[value]`).
def lookups(value: Optional[bool], flag: bool, user: str, labels: Dict[bool, str]) -> None:
    sink("<code>%s</code>" % {True: "true", False: "false", None: "null"}[value])
    sink({True: "true", False: user}[flag])  # E
    sink(labels[flag])  # E


# The builtin `str` of a literal returns it (python-crontab's log format, a Python 2 habit).
def str_of_a_literal(user: str, n: int) -> None:
    sink(str("Missing user or command in system cron %s: %s"))
    sink(str())
    sink(str(user))  # E
    sink(str(n))  # E
