"""`check --report-any`: values of type Any that reach a LiteralString, judged by the checker."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.analysis import any_copies, callees, unverified, unverified_refusals
from typing_literalstring.checkers import CHECKERS, COMMAND_CHECKERS, Diagnostic
from typing_literalstring.commands import EXIT_FINDINGS
from typing_literalstring.commands.cli import main
from typing_literalstring.specs.sinks import find_sink_calls

# Each composition form with a part of type Any, at a sink; then the safe forms.
PROGRAM = """\
import json
import logging
import sqlite3
import subprocess


def handler(cur: sqlite3.Cursor, body: str) -> None:
    payload = json.loads(body)
    cur.execute(payload["query"])  # E: the whole argument
    cur.execute("SELECT * FROM t WHERE a = '" + payload["a"] + "'")  # E: + operand
    cur.execute("SELECT * FROM t WHERE a = '%s'" % payload["a"])  # E: % operand
    cur.execute(f"SELECT {payload['column']} FROM t")  # E: f-string field
    cur.execute("SELECT {} FROM t".format(payload["column"]))  # E: format argument
    cur.execute(", ".join(payload["columns"]))  # E: join argument
    query = "DELETE FROM t WHERE a = '" + payload["a"] + "'"
    cur.execute(query)  # E: held in a name
    subprocess.run("ls " + payload["dir"], shell=True)  # E: a shell command
    script = "curl -sSf " + payload["url"]
    subprocess.run(["bash", "-lc", script])  # E: an argument list that starts a shell
    logging.getLogger().log(20, payload["message"], *payload["args"])  # E: *args to format
    cur.execute("SELECT * FROM t WHERE a = ?", (payload["a"],))
    subprocess.run(["ls", payload["dir"]])
    print("SELECT " + payload["a"])
"""
MARKED = [n for n, text in enumerate(PROGRAM.splitlines(), 1) if "# E" in text]


def _findings(
    name: str, folder: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> list[dict[str, Any]]:  # JSON
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    status = main(
        ["check", "--checker", name, "--format", "json", "--cache-dir", str(folder / "cache"),
         *extra, str(folder / "handler.py")]
    )  # fmt: skip
    assert status == EXIT_FINDINGS
    found: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["findings"]
    return found


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_any_in_each_composition_form_is_reported(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --report-any every marked line is a finding and no safe line is; the lines the
    checker lets through without it are LS901, and their message names json.loads."""
    (tmp_path / "handler.py").write_text(PROGRAM, encoding="utf-8")
    plain = {f["line"] for f in _findings(name, tmp_path, capsys)}
    found = _findings(name, tmp_path, capsys, "--report-any")
    assert sorted({f["line"] for f in found}) == MARKED
    unverified_lines = {f["line"] for f in found if f["rule"] == "LS901"}
    # The Any parts the checker let through are exactly the new findings.
    assert unverified_lines == set(MARKED) - plain
    assert unverified_lines, f"{name} reported every Any part without --report-any"
    for finding in found:
        if finding["rule"] == "LS901":
            assert "`json.loads` returns Any" in str(finding["checker_messages"]), finding


def test_pyright_lets_the_appendix_b_forms_through_and_report_any_names_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The forms PEP 675's Appendix B warns of: `literal + Any` keeps the LiteralString overload
    of `+`, and a value of type Any is assignable to LiteralString."""
    (tmp_path / "handler.py").write_text(PROGRAM, encoding="utf-8")
    found = _findings("pyright", tmp_path, capsys, "--report-any")
    by_line = {f["line"]: f for f in found}
    # Every marked text's only part that is not literal is Any: f-string fields, `format` and
    # `join` arguments make a str for pyright, but the Any is what makes it so.
    let_through = MARKED
    # Those built in view are LS902 by default (sink_outcomes.py); the others LS901.
    unverified_ = {"LS901", "LS902"}
    assert sorted(n for n, f in by_line.items() if f["rule"] in unverified_) == let_through
    # The name is followed to the value assigned to it, whose part is the Any.
    held = next(n for n, t in enumerate(PROGRAM.splitlines(), 1) if "held in a name" in t)
    assert by_line[held]["rule"] == "LS902"
    assert '`payload["a"]` (Any)' in str(by_line[held]["checker_messages"])


@pytest.mark.parametrize(
    ("code", "parts"),
    [
        ("f(x)", ["x"]),
        ("f('a' + x + 'b')", ["x"]),
        ("f('%s %s' % (x, y))", ["x", "y"]),
        ("f('%(a)s' % {'a': x})", ["x"]),
        ("f('%s' % x)", ["x"]),
        ("f(f'{x} {y!r:>{w}}')", ["x", "y", "w"]),
        ("f('{} {n}'.format(x, n=y))", ["x", "y"]),
        ("f(q.format(x))", ["q", "x"]),
        ("f(', '.join(xs))", ["xs"]),
        ("f(', '.join([x, 'a']))", ["x"]),
        ("f(', '.join(c for c in cs))", ["(c for c in cs)"]),
        ("f(a if c else 'b')", ["a"]),
        ("f(['sh', '-c', x])", ["x"]),
        ("f('literal')", []),
        ("f(*args)", []),
        ("f((y := x))", []),
    ],
)
def test_composition_parts(code: str, parts: list[str]) -> None:
    statement = ast.parse(code).body[0]
    assert isinstance(statement, ast.Expr)
    assert isinstance(statement.value, ast.Call)
    assert [ast.unparse(p) for _, p in unverified.call_parts(statement.value)] == parts


@pytest.mark.parametrize(
    "message",
    [
        'Type of "(payload["name"], 7)" is "tuple[Any, Literal[7]]"',  # pyright, basedpyright
        'Revealed type is "tuple[Any, Literal[7]?]"',  # mypy
        "Revealed type: `tuple[Any, Literal[7]]`",  # ty
        'Revealed type is "builtins.tuple[Any, Literal[7]?]"',  # zuban
        "revealed type: tuple[Any, Literal[7]]",  # pyrefly
    ],
)
def test_each_checkers_reveal_is_read(message: str) -> None:
    assert unverified.revealed_types([message]) == {7: "Any"}


@pytest.mark.parametrize(
    ("revealed", "items", "is_any"),
    [
        ("Any", False, True),
        ("Unknown", False, True),
        ("str | Any", False, True),
        ("str | None | Unknown", False, True),
        ("TextIO | Any", False, False),  # no string: `str` would break the call otherwise
        ("list[Unknown]", False, False),
        ("list[Unknown]", True, True),  # the items of a join
        ("Generator[Any, None, None]", True, True),
        ("list[LiteralString]", True, False),
        ("LiteralString", False, False),
        ("str", False, False),
        ("AnyStr", False, False),
    ],
)
def test_what_counts_as_any(revealed: str, items: bool, is_any: bool) -> None:
    assert unverified.is_any(revealed, items=items) is is_any


SOURCE = """\
import json
def f(cur, body):
    d = json.loads(body)
    cur.execute("a" + d["x"] + str(d["y"]), (d["z"],)); g(dict(k for k in d))
    cur.execute(f"{d['w']}", str(1))
    cur.execute(f"{', '.join(k for k in d)}")
"""


def test_copies_keep_every_line_and_parse() -> None:
    """Both copies put their probes around the parts without moving a line; a generator that
    is a call's only argument gets its probe inside the call's parentheses."""
    tree = ast.parse(SOURCE)
    found = unverified.analyse(SOURCE, tree)
    revealed = any_copies.reveal_copy(found)
    assert len(revealed.splitlines()) == len(SOURCE.splitlines())
    ast.parse(revealed)
    assert "dict(reveal_type(((k for k in d), " in revealed
    found.types = {found.tags[id(p)]: "Any" for parts in found.parts.values() for _, p in parts}
    copy = unverified_refusals.substitute_copy(found)
    assert len(copy.source.splitlines()) == len(SOURCE.splitlines())
    # Each probe is told from the file's own str(...) calls.
    tree_copy = ast.parse(copy.source)
    kept = unverified_refusals.original_calls(tree_copy)
    assert [ast.unparse(c.func) for c in kept] == [
        ast.unparse(c.func) for c in unverified.all_calls(tree)
    ]
    assert copy.source.count("str(object=") == len(copy.parts)


def test_no_overload_for_a_call_inside_a_part_is_not_the_sinks() -> None:
    """pyright puts "No overloads for normpath" at the parenthesis of `str(object=(...))`, inside
    the logging call's argument (borgmatic 2.1.10, config/paths.py:150); it is about normpath,
    not the sink."""
    source = (
        "import logging, os\ndef f(p) -> None:\n    logging.debug(f'dir {os.path.normpath(p)}')\n"
    )
    tree = ast.parse(source)
    found = unverified.analyse(source, tree)
    found.types = {found.tags[id(p)]: "Unknown" for parts in found.parts.values() for _, p in parts}
    copy = unverified_refusals.substitute_copy(found)
    line = copy.source.splitlines()[2]
    column = line.index("(os.path") + 1
    message = 'No overloads for "normpath" match the provided arguments'
    error = Diagnostic("f.py", 3, column, "error", message, "reportCallIssue")

    def refused(d: Diagnostic) -> list[unverified_refusals.Refusal]:
        return unverified_refusals.refusals(
            copy,
            tree,
            source,
            [(d, None)],
            checker="pyright",
            sink_calls=find_sink_calls(callees.Sites(tree).calls, source),
            refused_before=set(),
        )

    assert refused(error) == []
    # The same error naming the sink is the sink's.
    named = refused(replace(error, message='No overloads for "debug" match'))
    assert [ast.unparse(r.call.func) for r in named] == ["logging.debug"]
