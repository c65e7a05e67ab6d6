"""The project's own sink wrappers (``analysis.wrappers``): a function whose parameter reaches a
sink is a sink for its callers, across modules, through forwarding and subclasses; the finding
sits at the call that passes a non-literal value and shows the chain."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.checking import check_project, found_rules, marked_rules
from typing_literalstring.analysis import wrapper_calls, wrappers
from typing_literalstring.checkers import COMMAND_CHECKERS
from typing_literalstring.commands import EXIT_FINDINGS

# The wrappers, in the shapes of the real code in benchmarks/cves and issue 27: an untyped
# helper, a helper typed str, a method building its text, a shell helper whose shell= is a
# parameter, a Popen subclass with an untyped __init__ and a classmethod forwarding
# cls(*args, **kwargs), a Protocol method implemented by a wrapper, *args forwarding.
DB = """\
import sqlite3
import subprocess
from typing import List, Protocol

from jinja2.sandbox import SandboxedEnvironment
from typing_extensions import LiteralString

conn = sqlite3.connect(":memory:")


def run_sql(sql, params=()):
    return conn.execute(sql, params)  # at its callers


def count(table: str) -> int:
    row = run_sql(f"SELECT count(*) FROM {table}").fetchone()  # at its callers
    return int(row[0])


def typed(sql: str) -> None:
    conn.execute(sql)  # at its callers


def already(sql: LiteralString) -> None:
    conn.execute(sql)


def forward(*args, **kwargs):
    return run_sql(*args, **kwargs)


def shell(cmd: str, use_shell: bool = False) -> None:
    subprocess.run(cmd, shell=use_shell)  # at its callers


class Store(Protocol):
    def lookup(self, where: str) -> object: ...


def create_index(columns: List[str]) -> None:
    conn.execute("CREATE INDEX i ON t (" + ", ".join(columns) + ")")  # at its callers


class SqlStore:
    def lookup(self, where: str) -> object:
        return conn.execute("SELECT * FROM t WHERE " + where)  # at its callers


class Other:
    def lookup(self, path: str) -> object:
        return open(path)


class AuditedStore(SqlStore):
    def lookup(self, where):
        print("lookup", where)
        # pyright gives `where` the base's type (str), mypy leaves it Any.
        return super().lookup(where)  # at its callers


def sandboxed(template_text: str) -> object:
    env = SandboxedEnvironment()
    return env.from_string(template_text)


class P(subprocess.Popen):  # type: ignore[type-arg]
    def __init__(self, args, *remaining, shell=False, **kwargs):
        super().__init__(args, *remaining, shell=shell, **kwargs)

    @classmethod
    def start(cls, *args, **kwargs):
        return cls(*args, **kwargs)
"""
VIEWS = """\
import json
import sys

from db import (
    AuditedStore,
    P,
    create_index,
    Other,
    Store,
    already,
    count,
    forward,
    run_sql,
    sandboxed,
    shell,
    typed,
)

user = sys.argv[1]
run_sql("SELECT 1")  # proven
run_sql("SELECT * FROM t WHERE a = '%s'" % user)  # LS101
run_sql(json.loads(user))  # unverified value-any
typed(user)  # LS101
typed("SELECT 2")  # proven
already("SELECT 3")  # proven
count(user)  # LS101
forward(user)  # LS101
shell(user)
shell(user, use_shell=True)  # LS201
shell("ls", use_shell=True)  # proven
P(user, shell=True)  # LS201
P(user)
P.start(user, shell=True)  # LS201
Other().lookup(user)


def find(store: Store, name: str) -> object:
    return store.lookup("name = '" + name + "'")  # LS101


sandboxed(user)
AuditedStore().lookup("name = " + user)  # LS101
create_index(["name", "email"])  # proven
create_index(["name", user])  # LS101
"""


def _line(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


def _marks(text: str) -> dict[int, str]:
    return {
        n: line.split("  # ", 1)[1] for n, line in enumerate(text.splitlines(), 1) if "  # " in line
    }


def test_wrappers_are_found_with_their_chain_and_forwarding() -> None:
    found = wrappers.infer({"db.py": ast.parse(DB)})
    chains = {(w.name, w.parameter): w.chain for ws in found.values() for w in ws}
    assert chains[("run_sql", "sql")] == ("run_sql(sql)", "conn.execute")
    assert chains[("count", "table")] == ("count(table)", "run_sql(sql)", "conn.execute")
    assert chains[("forward", "*args")] == ("forward(args)", "run_sql(sql)", "conn.execute")
    assert chains[("P", "args")] == ("P(args)", "Popen")
    assert chains[("start", "*args")] == ("start(args)", "P(args)", "Popen")
    assert ("lookup(where)", "conn.execute") in [w.chain for w in found["lookup"]]
    # An untyped override that calls the base's method through super() keeps the sink.
    assert ("lookup(where)", "lookup(where)", "conn.execute") in [w.chain for w in found["lookup"]]
    assert "already" not in found  # annotated LiteralString: the checker judges its callers
    assert "sandboxed" not in found  # compiles on a Jinja2 sandbox
    (shell,) = found["shell"]
    assert (shell.shell, shell.shell_position, shell.shell_default) == ("use_shell", 1, False)
    assert found["start"][0].method
    assert found["P"][0].is_class
    assert found["forward"][0].position == 0
    assert found["forward"][0].keyword is None


def _call(text: str) -> ast.Call:
    expression = ast.parse(text, mode="eval").body
    assert isinstance(expression, ast.Call)
    return expression


def test_a_call_without_the_shell_is_no_shell_wrapper_call() -> None:
    (shell,) = wrappers.infer({"db.py": ast.parse(DB)})["shell"]
    assert not shell.shell_given(_call("shell(x)"))
    assert not shell.shell_given(_call("shell(x, use_shell=False)"))
    for given in ("shell(x, True)", "shell(x, use_shell=flag)", "shell(x, **options)"):
        assert shell.shell_given(_call(given)), given


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_a_wrapper_call_is_judged_at_its_caller(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each marked line gets its rule or outcome with every checker; no other line has a
    finding (``Other().lookup(user)`` shares the wrapper's name, not its parameter)."""
    status, document = check_project(
        name, tmp_path, {"db.py": DB, "views.py": VIEWS}, capsys, "--show-unverified"
    )
    assert status == EXIT_FINDINGS
    for file, text in (("db.py", DB), ("views.py", VIEWS)):
        rules = {f["line"]: f["rule"] for f in document["findings"] if f["path"].endswith(file)}
        unverified = {
            u["line"]: u["reason"] for u in document["unverified"] if u["path"].endswith(file)
        }
        marks = _marks(text)
        if name == "zuban" and file == "db.py":
            # zuban takes `shell=use_shell` (a bool) by the overload that asks no literal
            # command: the wrapper's own line passes, its callers are still judged.
            marks[_line(DB, "subprocess.run(cmd, shell=use_shell)")] = "-"
            marks[_line(DB, "super().__init__(")] = (
                "-"  # and reports the Popen subclass's super().__init__ as LS001
            )
        for line, mark in marks.items():
            if mark.startswith("LS"):
                assert rules.get(line) in mark.split(" or "), (
                    file,
                    line,
                    mark,
                    document["findings"],
                )
            elif mark == "proven":
                assert line not in rules, (file, line)
                assert line not in unverified, (file, line)
            elif mark.startswith("unverified"):
                assert unverified.get(line) == mark.split()[-1], (file, line, unverified)
            elif mark == "at its callers":
                # One flow, one finding: the wrapper's callers are judged and carry it.
                assert line not in rules, (file, line, rules[line])
        assert set(rules) <= set(marks), (file, rules)
    through = {
        f["line"]: f["through"] for f in document["findings"] if f["path"].endswith("views.py")
    }
    assert through[_line(VIEWS, "count(user)")] == [
        "count(table)",
        "run_sql(sql)",
        "conn.execute (sqlite3 Connection/Cursor.execute)",
    ]


# A chain of two wrappers across modules; the sink call sits after a non-ASCII character, whose
# two UTF-8 bytes `ast` counts in its column and the JSON does not.
CHAIN_DB = """\
import sqlite3

conn = sqlite3.connect(":memory:")


def run_sql(sql):
    return {"café": conn.execute(sql)}


def count(table: str) -> object:
    return run_sql(f"SELECT count(*) FROM {table}")
"""
CHAIN_VIEWS = """\
import sys

from db import count

count(sys.argv[1])
"""


def test_the_json_says_where_the_chain_goes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A finding at a wrapper's caller names, with its chain, the call each wrapper goes on
    through, down to the sink call: where the flow reaches the sink, not only who called."""
    _, document = check_project(
        "pyright", tmp_path, {"db.py": CHAIN_DB, "views.py": CHAIN_VIEWS}, capsys
    )
    (finding,) = document["findings"]
    assert (Path(finding["path"]).name, finding["line"]) == ("views.py", 5)
    sink = "conn.execute (sqlite3 Connection/Cursor.execute)"
    assert finding["through"] == ["count(table)", "run_sql(sql)", sink]
    places = [{**place, "path": Path(place["path"]).name} for place in finding["through_places"]]
    run_sql = _line(CHAIN_DB, "return run_sql(")
    execute = _line(CHAIN_DB, "conn.execute(sql)")
    assert places == [
        {
            "function": "count(table)",
            "path": "db.py",
            "line": run_sql,
            "column": CHAIN_DB.splitlines()[run_sql - 1].index("run_sql(") + 1,
            "call": "run_sql(sql)",
        },
        {
            "function": "run_sql(sql)",
            "path": "db.py",
            "line": execute,
            "column": CHAIN_DB.splitlines()[execute - 1].index("conn.execute(") + 1,
            "call": sink,
        },
    ]


def test_without_the_wrapper_inference_the_callers_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The findings at the callers come from the inference alone: without it, the check of the
    same files reports none of them."""

    def nothing(modules: object, project: object = None) -> dict[str, list[wrapper_calls.Wrapper]]:
        return {}

    monkeypatch.setattr(wrappers, "infer", nothing)
    _, document = check_project("pyright", tmp_path, {"db.py": DB, "views.py": VIEWS}, capsys)
    lines = {f["line"] for f in document["findings"] if f["path"].endswith("views.py")}
    marked = {n for n, mark in _marks(VIEWS).items() if mark.startswith("LS")}
    assert not lines & marked, lines


VALIDATED = """\
import sqlite3
import sys

conn = sqlite3.connect(":memory:")


def distinct_values(column: str) -> object:
    if column not in ("name", "email", "city"):
        raise SystemExit("no such column")
    return conn.execute(f"SELECT DISTINCT {column} FROM contacts")


def count(column: str) -> object:
    return distinct_values(column)


distinct_values(sys.argv[1])
count(sys.argv[2])
distinct_values("name")
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_function_that_checks_its_parameter_is_no_wrapper(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The corpus's sql/019 shape: the run proves the sink call literal (the checker narrows
    `column` by `not in` a tuple of literals), so the callers are proven too, through a second
    function as well; before, each caller was an LS101."""
    status, document = check_project(name, tmp_path, {"app.py": VALIDATED}, capsys)
    assert document["findings"] == []
    assert status == 0
    assert document["sink_calls"]["proven"] == document["sink_calls"]["total"] == 5


# databases 0.9.0: `fetch_all(query: ClauseElement | str)` compiles only a str with text();
# its callers mostly pass query objects, which are no SQL text at all.
QUERY_OBJECTS = """\
from typing import Union

import sqlalchemy
from sqlalchemy.sql import ClauseElement


def build(query: Union[ClauseElement, str]) -> ClauseElement:
    if isinstance(query, str):
        return sqlalchemy.text(query)  # one flow: its callers' finding
    return query


def use(user: str) -> None:
    table = sqlalchemy.table("t", sqlalchemy.column("a"))
    build(sqlalchemy.select(table))
    build(query=table.select().where(table.c.a == user))
    build("SELECT 1")
    build("SELECT * FROM t WHERE a = '" + user + "'")  # LS101


def failed(error: Exception) -> None:
    build(f"SELECT '{error}'")  # LS101
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_query_object_passed_to_a_wrapper_is_no_text(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A value that cannot be a string (a SQLAlchemy Select) reaches no text sink through
    the wrapper: no finding, and no sink call counted; 49 such LS101s on databases 0.9.0.
    Text composed in view is text whatever it formats (an exception: Flask-Admin 2.2.1's
    reflected markup was lost to this rule at first)."""
    status, document = check_project(name, tmp_path, {"app.py": QUERY_OBJECTS}, capsys)
    assert found_rules(document) == marked_rules(QUERY_OBJECTS)
    assert document["sink_calls"]["total"] == 4  # text() in build, and the three str callers
    assert status == EXIT_FINDINGS


# datasette 0.65.5's Database.execute runs the SQL in a function it defines and hands to a
# thread; another method hands `conn.execute` itself to the executor with its text.  Both are
# wrappers: a call of either from the class (the project's own callee, judged through the
# wrapper since it is one) is a finding, not a call left uncounted.
CLOSURE = """\
import asyncio
import sqlite3
import sys


class Database:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def execute(self, sql, params=None):
        def in_thread(conn):
            return conn.execute(sql, params or {})  # one flow: its callers' finding

        return await asyncio.get_running_loop().run_in_executor(None, in_thread, self.conn)

    async def query(self, sql):
        return await asyncio.get_running_loop().run_in_executor(None, self.conn.execute, sql)

    async def table_count(self, table: str):
        return await self.execute(f"select count(*) from [{table}]")  # LS101

    async def first(self, table: str):
        return await self.query(f"select * from [{table}] limit 1")  # LS101

    async def version(self):
        return await self.execute("select sqlite_version()")
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_sink_in_a_closure_or_handed_to_an_executor_makes_a_wrapper(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": CLOSURE}, capsys)
    assert found_rules(document) == marked_rules(CLOSURE)
    assert document["sink_calls"]["total"] == 4  # and `self.execute("select sqlite_version()")`


def test_a_variable_named_like_a_sink_is_no_sink_handed_over() -> None:
    """web.py 0.76's `_strips(direction, text, remove)`: `text` is a variable, not
    sqlalchemy's `text` handed over with `remove` as its SQL (12 false findings through
    lstrips, Template...); a method reference named like a sink's verb is one."""
    source = (
        "def lstrips(text, remove):\n    return _strips('l', text, remove)\n\n\n"
        "def query(loop, conn, sql):\n    return loop.run_in_executor(None, conn.execute, sql)\n"
    )
    found = wrappers.infer({"utils.py": ast.parse(source)})
    assert sorted(found) == ["query"]
    assert [w.parameter for w in found["query"]] == ["sql"]


def test_a_call_named_like_a_sink_out_of_view_is_the_sink_not_a_wrapper_of_its_name() -> None:
    """datasette 0.65.5: `cursor.execute(sql, params)` in Database.execute's closure was
    linked by its name to Datasette.execute(db_name, sql, params), whose `sql` is its second
    parameter, so `params` became a wrapper's parameter (LS101 at literal SQL)."""
    source = (
        "class Datasette:\n    def execute(self, db_name, sql, params=None):\n"
        "        return self.databases[db_name].execute(sql, params)\n\n\n"
        "class Database:\n    def execute(self, sql, params=None):\n"
        "        def in_thread(conn):\n            cursor = conn.cursor()\n"
        "            cursor.execute(sql, params)\n\n        return self.run(in_thread)\n"
    )
    found = wrappers.infer({"app.py": ast.parse(source)})
    assert sorted((w.owner, w.parameter) for w in found["execute"]) == [
        ("Database", "sql"),
        ("Datasette", "sql"),
    ]


def test_a_call_named_like_a_sink_whose_first_argument_is_no_text_may_be_the_projects() -> None:
    """Pony 0.7.20's Database._exec_sql calls `provider.execute(cursor, sql, arguments)`: no
    text goes first, so the project's own DBAPIProvider.execute(cursor, sql) is the likelier
    callee, and _exec_sql stays a wrapper (7 of pony's findings were lost without it)."""
    source = (
        "class DBAPIProvider:\n    def execute(self, cursor, sql, arguments=None):\n"
        "        cursor.executemany(sql, arguments)\n\n\n"
        "class Database:\n    def _exec_sql(self, sql, arguments):\n"
        "        cursor = self.connection.cursor()\n"
        "        return self.provider.execute(cursor, sql, arguments)\n"
    )
    found = wrappers.infer({"core.py": ast.parse(source)})
    assert [(w.owner, w.parameter) for w in found["_exec_sql"]] == [("Database", "sql")]
