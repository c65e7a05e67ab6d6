"""Every SQL, shell, template and markup call has one outcome: proven literal, a finding, or
unverified (``analysis.sink_outcomes``), asked in the one tightened run."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.analysis import probes, sink_looks, sink_texts, unverified
from typing_literalstring.checkers import CHECKERS, COMMAND_CHECKERS
from typing_literalstring.checkers.asking import JUDGED, Probe
from typing_literalstring.commands import EXIT_FINDINGS
from typing_literalstring.commands.cli import main
from typing_literalstring.mypy.reveal import probe_function

# Each line marked with the rule it must get by default, or with the outcome it must have.
# Every LS90x line is one the checker lets through on its own: its value is Any, its receiver
# unknown, or its callee typed str (the real vulnerabilities in benchmarks/cves).
PROGRAM = """\
import sqlite3
import subprocess
from functools import cached_property
from typing import Protocol


class Cursor(Protocol):
    def execute(self, sql: str) -> None: ...


TABLE = "users"


def by_name(conn: sqlite3.Connection, name: str) -> None:
    conn.execute("SELECT * FROM users WHERE name = '" + name + "'")  # LS101


def proven(conn: sqlite3.Connection) -> None:
    conn.execute("SELECT 1")  # proven
    conn.execute("SELECT * FROM t WHERE id = ?", (1,))  # proven


def untyped_param(conn: sqlite3.Connection, query):
    conn.execute(query)  # LS903


def own_protocol(cur: Cursor, table: str) -> None:
    cur.execute('PRAGMA table_info("%s")' % table)  # LS904


def query_of(table: str) -> str:
    return table


def own_protocol_literal(cur: Cursor, table: str) -> None:
    cur.execute("SELECT * FROM " + TABLE)  # proven
    cur.execute(query_of(table))  # unverified callee-str


def untyped_shell(cmd) -> None:
    subprocess.run("ls " + cmd, shell=True)  # LS902


def shell_list(path: str) -> None:
    subprocess.run(["ls", path])
"""
MARKS = {
    n: text.split("# ", 1)[1] for n, text in enumerate(PROGRAM.splitlines(), 1) if "  # " in text
}


def _check(
    name: str, folder: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> dict[str, Any]:  # JSON
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    status = main(
        ["check", "--checker", name, "--format", "json", "--cache-dir", str(folder / "cache"),
         "--show-unverified", *extra, str(folder / "app.py")]
    )  # fmt: skip
    assert status == EXIT_FINDINGS
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_every_sink_call_is_proven_reported_or_unverified(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each marked line gets its rule or outcome, with every checker; the LS90x lines have no
    finding of the sink's own rule (the checker let them through), and no probe leaves an error
    of its own behind (mypy's "does not return a value" for a wrapped None-returning call)."""
    (tmp_path / "app.py").write_text(PROGRAM, encoding="utf-8")
    document = _check(name, tmp_path, capsys)
    rules = {f["line"]: f["rule"] for f in document["findings"]}
    unverified_ = {u["line"]: u["reason"] for u in document["unverified"]}
    for line, mark in MARKS.items():
        if mark.startswith("LS"):
            assert rules.get(line) == mark, (line, mark, document["findings"])
        elif mark == "proven":
            assert line not in rules, line
            assert line not in unverified_, line
        else:
            assert unverified_.get(line) == mark.split()[-1], (line, document["unverified"])
    marks = MARKS
    calls = document["sink_calls"]
    assert calls["total"] == len(marks)
    assert calls["proven"] == sum(1 for m in marks.values() if m == "proven")
    assert calls["unverified"] == sum(1 for m in marks.values() if m.startswith("unverified"))
    assert document["other_errors"] == 0


def test_the_summary_counts_and_lists_unverified_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    (tmp_path / "app.py").write_text(PROGRAM, encoding="utf-8")
    cache = str(tmp_path / "cache")
    main(["check", "--cache-dir", cache, str(tmp_path / "app.py")])
    out = capsys.readouterr().out
    assert (
        "8 sink calls: 3 proven literal, 4 with a finding, "
        "1 unverified (1 the callee takes str) (--show-unverified lists them)." in out
    )
    assert "unverified: `query` is Unknown: parameter `query` has no annotation" in out
    main(["check", "--cache-dir", cache, "--show-unverified", str(tmp_path / "app.py")])
    out = capsys.readouterr().out
    line = next(n for n, mark in MARKS.items() if mark.endswith("callee-str"))
    assert (
        f"app.py:{line}:5: unverified: cur.execute (execute, named like an SQL sink): the callee "
        "takes str: `cur.execute` is (sql: str) -> None" in out
    )
    main(["check", "--cache-dir", cache, "--format", "sarif", "--show-unverified",
          str(tmp_path / "app.py")])  # fmt: skip
    run = json.loads(capsys.readouterr().out)["runs"][0]
    notes = [n for n in run["invocations"][0]["toolExecutionNotifications"] if n["level"] == "note"]
    assert [n["locations"][0]["physicalLocation"]["region"]["startLine"] for n in notes[1:]] == [
        line
    ]
    assert {r["ruleId"] for r in run["results"]} == {"LS101", "LS902", "LS903", "LS904"}


PROBE = Probe("0123456789abcdef")


def _copy(source: str, checker: str = "pyright") -> probes.ProbedCopy:
    tree = ast.parse(source)
    copied = probes.probed_copy("m.py", source, tree, CHECKERS[checker], PROBE)
    assert copied is not None
    return copied


HOSTILE = '''\
"""Doc."""
from __future__ import annotations
import subprocess
from jinja2 import Environment, Template

def gen(cur, env: Environment, rows, table):
    cur.execute("SELECT " + ", ".join(c for c in rows) + " FROM t")
    x = [cur.execute(f"SELECT {r} FROM {table}") for r in rows]
    y = (yield cur.execute("SELECT %s" % (yield table)))
    print(f"{cur.execute('SELECT ' + table)}")
    cur.execute(
        "SELECT "
        + table,
    )
    return env.from_string(Template(table).render()), x, y

@Template("a" + "b")
def decorated(): ...
'''


@pytest.mark.parametrize("checker", ["pyright", "mypy+plugin", "ty"])
def test_probed_copies_keep_every_line_and_parse(checker: str) -> None:
    """Generators, yields, comprehensions, f-strings, multi-line and nested calls, a decorator:
    the copy parses, and every line of the original maps back to itself."""
    copied = _copy(HOSTILE, checker)
    tree = ast.parse(copied.copy.text)
    assert len(copied.looks) == 7  # the decorator is not wrapped, nor counted
    assert len(copied.copy.text.splitlines()) == len(HOSTILE.splitlines()) + 1
    for number, text in enumerate(copied.copy.text.splitlines(), 1):
        if number == 3:
            assert text.startswith(f"from {PROBE.module} import judge as {PROBE.judge}")
            continue
        back = copied.copy.original(number, 1)
        assert back == (number - (number > 3), 1), (number, text)
    assert tree.body


def test_a_statement_call_is_asked_about_after_it_and_a_value_inside_a_tuple() -> None:
    """After the call: mypy keeps only the first of two equal messages on a line, and that
    must be the original's (psycopg's ``sql.SQL(...).format(...)`` lost its finding).  The
    text is judged; pyright reveals names it binds, since its message prints the expression."""
    copied = _copy("def f(cur, q):\n    cur.execute(q)\n    return cur.execute(q)\n", "ty")
    lines = copied.copy.text.splitlines()
    judge = PROBE.judge
    assert lines[2] == (
        f"    cur.execute(q); reveal_type((((q)), 0)); reveal_type(({judge}(((q))), {JUDGED}));"
        " reveal_type((((cur.execute)), 1))"
    )
    assert lines[3] == (
        f"    return (cur.execute(q), reveal_type((((q)), 2)), reveal_type(({judge}(((q))), "
        f"{JUDGED + 2})), reveal_type((((cur.execute)), 3)))[0]"
    )
    lines = _copy("def f(cur, q):\n    cur.execute(q)\n").copy.text.splitlines()
    name = PROBE.variable(0)
    assert lines[2] == (
        f"    cur.execute(q); ({name} := ((q))); reveal_type({name}); "
        f"reveal_type({judge}({name})); ({PROBE.variable(1)} := ((cur.execute))); "
        f"reveal_type({PROBE.variable(1)})"
    )


def test_the_plugin_answers_for_the_probe_module() -> None:
    """The stub's judge and reveal are the functions the mypy plugin's hooks are for."""
    assert probe_function(f"{PROBE.module}.judge") == "judge"
    assert probe_function(f"{PROBE.module}.reveal") == "reveal"
    assert probe_function("myapp.judge") is None
    assert "def judge(" in PROBE.stub()
    assert "def reveal(" in PROBE.stub()


@pytest.mark.parametrize(
    ("code", "counted"),
    [
        ("subprocess.run(cmd, shell=True)", True),
        ("subprocess.run(cmd, shell=False)", False),  # an argument list's business (LS202)
        ("subprocess.run(cmd)", False),
        ("os.system(cmd)", True),
        ("logger.info(msg)", False),  # no format: the standard module does not format it
        ("logger.info(msg, value)", True),  # a format string: its text is asked about
        ("qs.extra(where=[w])", False),
        ("cur.execute('SELECT 1')", True),
        ("Markup(html)", True),
    ],
)
def test_which_calls_are_sink_calls(code: str, counted: bool) -> None:
    tree = ast.parse(code)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    found = sink_looks.looks(tree, calls, unverified.prepared(code, tree))
    assert bool(found) is counted


@pytest.mark.parametrize(
    ("code", "built"),
    [
        ("'a' + b", True),
        ("f'{a}'", True),
        ("'%s' % a", True),
        ("', '.join(a)", True),
        ("a", False),
        ("a.b", False),
        ("'a'", False),
        ("f'abc'", False),
        ("'a' + b if c else 'd'", True),
        # litecli 1.17.1: `cur = self.conn.cursor() if self.conn else None` is no text built.
        ("c.cursor() if c else None", False),
    ],
)
def test_is_composition(code: str, built: bool) -> None:
    expr = ast.parse(code, mode="eval").body
    assert sink_texts.is_composition(expr) is built


# Shapes from the held-out CVEs and real projects (benchmarks/cves, litecli 1.17.1,
# sqlite-utils 3.38), each a cause rather than a case.
SHAPES = """\
import sqlite3
from typing import Any, Union


class Form:
    def __init__(self, data: Any) -> None:
        self.cleaned_data: dict[str, Any] = data


class CursorA:
    def execute(self, operation: str) -> None: ...


class CursorB:
    def execute(self, operation: str, params: tuple[int, ...] = ()) -> None: ...


def sql_select(request, cursor):
    form = Form(request.POST or None)
    sql = form.cleaned_data["raw_sql"]
    cursor.execute(sql)  # LS903: input built into an object, at an unknown receiver


def either(cur: Union[CursorA, CursorB, Any], table: str) -> None:
    cur.execute(f"SELECT * FROM {table} LIMIT 100")  # LS904: a union of str-typed cursors


def special(conn: sqlite3.Connection, c: Any) -> None:
    cur = c if c else None
    execute(cur, "SELECT 1")  # no finding: `c if c else None` builds no text


def execute(cur: Any, sql: str) -> None: ...


def start(args: list[str]) -> None:
    import os
    import subprocess

    subprocess.Popen(args, shell=os.name != "nt")  # LS201: its first item is the script


def attach(conn: sqlite3.Connection, options) -> None:
    conn.execute("ATTACH DATABASE '" + options[
        "path"
    ] + "' AS x")  # LS902: a part that spans lines is revealed too
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_shapes_of_real_code(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "app.py").write_text(SHAPES, encoding="utf-8")
    document = _check(name, tmp_path, capsys)
    rules = {f["line"]: f["rule"] for f in document["findings"]}
    marks = {
        n: text.split("# ", 1)[1].split(":")[0]
        for n, text in enumerate(SHAPES.splitlines(), 1)
        if "  # " in text
    }
    starts = {n: n for n in marks}
    starts[max(marks)] = max(marks) - 2  # the multi-line call starts two lines up
    for line, mark in marks.items():
        if mark.startswith("LS"):
            assert rules.get(starts[line]) == mark, (line, mark, document["findings"])
        else:
            assert starts[line] not in rules, line
    assert not [u for u in document["unverified"] if u["reason"] == "not-revealed"]


CHECKER_IGNORED = """\
import sqlite3


def lookup(conn: sqlite3.Connection, user: str) -> None:
    conn.execute("SELECT * FROM t WHERE name = '" + user + "'")  # type: ignore
    conn.execute(
        f"SELECT {user}"  # type: ignore
    )
    conn.execute("SELECT '# type: ignore'")
    conn.execute("SELECT * FROM t WHERE name = ?", (user,))
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_call_under_the_checkers_own_ignore_comment_is_not_proven(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`# type: ignore` hides the checker's verdict: the summary counted such a call "proven
    literal" (pyright) or "the checker revealed no type" (mypy).  It is unverified, said why;
    the same words inside a string are no comment."""
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n')
    (tmp_path / "app.py").write_text(CHECKER_IGNORED, encoding="utf-8")
    main(
        ["check", "--checker", name, "--format", "json", "--cache-dir", str(tmp_path / ".cache"),
         "--show-unverified", str(tmp_path / "app.py")]
    )  # fmt: skip
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert document["findings"] == []
    assert document["sink_calls"]["proven"] == 2
    assert {(u["line"], u["reason"]) for u in document["unverified"]} == {
        (5, "checker-ignore"),
        (6, "checker-ignore"),
    }


# pgcli 4.7.1 (pgexecute.py:907): a psycopg query object, composed with its quoted identifier,
# on the cursor of a connection kept untyped: the checker cannot see the sink, but no text
# reaches it.  The str formatted the same way beside it stays an LS904.
QUERY_OBJECT = """\
import psycopg
import psycopg.sql


class PGExecute:
    def __init__(self, conn):
        self.conn = conn

    def set_timezone(self, timezone: str):
        query = psycopg.sql.SQL("set time zone {}").format(psycopg.sql.Identifier(timezone))
        with self.conn.cursor() as cur:
            cur.execute(query)

    def set_role(self, role: str):
        query = "set role {}".format(role)
        with self.conn.cursor() as cur:
            cur.execute(query)
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_query_object_at_an_unknown_receiver_is_no_text(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "app.py").write_text(QUERY_OBJECT, encoding="utf-8")
    document = _check(name, tmp_path, capsys)
    assert [(f["line"], f["rule"]) for f in document["findings"]] == [(17, "LS904")]
    assert document["sink_calls"]["total"] == 2  # the psycopg.sql.SQL call, and line 17
