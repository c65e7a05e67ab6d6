"""What a call's callee is found to be (``project_defs``), and the packages that hold our sinks.

A callee is the project's own definition (``Own``), a function of another package reached
through its import (``Foreign``), or undecided (None): then the call stays judged by its name.
A package whose functions are our sinks never makes a callee ``Foreign``: its callee is the sink
(``SINK_PACKAGES``), and a module that imports none of a family's ``PROVIDERS`` cannot hold such
a sink on its own instances.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Union

from typing_literalstring.analysis.own_sinks import tightened_parameters
from typing_literalstring.specs.sinks import SINK_NAMES

# The packages that provide a family's sinks, the drivers of SQL among them: a module that
# imports none may still call one on an object it is given, but not on one its own instances
# hold where it defines a method of that name (``project_defs.Callees._held_by_the_instance``).
_SQL_DRIVERS = """sqlite3 psycopg2 psycopg pymysql MySQLdb mysql aiosqlite asyncpg sqlalchemy
django peewee pony databases duckdb pyodbc oracledb cx_Oracle pymssql aiomysql aiopg sqlmodel
sqlite_utils records dataset tortoise clickhouse_driver trino"""
PROVIDERS = {
    "SQL": frozenset(_SQL_DRIVERS.split()),
    "shell": frozenset(("subprocess", "os", "asyncio", "paramiko", "invoke", "fabric")),
    "template": frozenset(("jinja2", "django", "flask", "mako", "tornado")),
    "markup": frozenset(("markupsafe", "django", "flask", "jinja2")),
}
# The packages whose functions are our sinks, or hold them (psycopg 3 types its own with
# LiteralString; MySQL Connector's cursors are "a driver's cursor"): a callee imported from
# one of them is judged as a sink, never as another package's function of that name.
SINK_PACKAGES = frozenset(
    (
        *(t.module.split(".")[0] for t in tightened_parameters()),
        *(api.split()[0].split(".")[0] for _, api in SINK_NAMES.values()),
        "psycopg",
        "mysql",
        "posix",
    )
)


@dataclass(frozen=True)
class Own:
    """A definition in a checked file: a function, or a class (called, its constructor)."""

    path: str  # resolved, as the wrapper inference names its files
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    # The class the call dispatches on (``self.m()`` in its methods): an override of the
    # method in its direct subclasses may be the callee too (``wrapper_calls.is_defined_by``).
    # "" when only this definition may be: ``super().m()``, ``Klass.m()``, a function.
    owner: str = ""
    defined_in: str = ""  # the class the method is defined in

    def holds(self, path: str, line: int) -> bool:
        """Whether a function defined at ``path``:``line`` is this definition (or, for a
        class, one of its methods: its ``__init__``)."""
        last = self.node.end_lineno or self.node.lineno
        return path == self.path and self.node.lineno <= line <= last


@dataclass(frozen=True)
class Foreign:
    """A callee reached through an import of another package than the project's."""

    package: str


Resolved = Union[Own, Foreign, None]


__all__ = ["PROVIDERS", "SINK_PACKAGES", "Foreign", "Own", "Resolved"]
