"""Third-party sinks: our specifications applied to the stub packages installed in the checked
environment (types-psycopg2, types-PyMySQL; see docs/third-party-overrides.md)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.checkers import CHECKERS, COMMAND_CHECKERS
from typing_literalstring.commands import EXIT_FINDINGS, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.stubspec import specs_dir

APP = """\
import aiosqlite
import jinja2
import paramiko
import psycopg2
import pymysql
from django.db import connection
from django.db.models.expressions import RawSQL
from django.template import Template as DjangoTemplate
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from flask import render_template_string
from markupsafe import Markup, escape
from psycopg2 import sql
from sqlalchemy import create_engine, text


def pg(user: str, table: str) -> None:
    conn = psycopg2.connect("dbname=x")
    cur = conn.cursor()
    cur.execute("SELECT * FROM t WHERE name = '" + user + "'")  # E: LS101 psycopg2 cursor.execute
    cur.execute("SELECT * FROM t WHERE name = %s", (user,))
    cur.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(table)))
    cur.execute(sql.SQL("SELECT * FROM " + table))  # E: LS101 psycopg2.sql.SQL
    cur.executemany(f"INSERT INTO {table} VALUES (%s)", [(1,)])  # E: LS101 cursor.executemany
    cur.mogrify("SELECT %s", (user,))


def my(user: str) -> None:
    conn = pymysql.connect(host="x")
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM t WHERE name = '%s'" % user)  # E: LS101 PyMySQL Cursor.execute
        cur.execute("SELECT * FROM t WHERE name = %s", (user,))


def alchemy(user: str) -> None:
    with create_engine("sqlite://").connect() as conn:
        conn.execute(text("SELECT * FROM t WHERE a = '" + user + "'"))  # E: LS101 SQLAlchemy text
        conn.execute(text("SELECT * FROM t WHERE a = :a"), {"a": user})
        conn.exec_driver_sql(f"DELETE FROM t WHERE a = '{user}'")  # E: LS101 exec_driver_sql
        conn.exec_driver_sql("DELETE FROM t WHERE a = ?", (user,))


async def lite(user: str) -> None:
    async with aiosqlite.connect("x.db") as db:
        cur = await db.cursor()
        await cur.execute(f"SELECT * FROM t WHERE a = '{user}'")  # E: LS101 Cursor.execute
        await cur.execute("SELECT * FROM t WHERE a = ?", (user,))


def dj(user: str) -> None:
    with connection.cursor() as cur:
        cur.execute("SELECT * FROM t WHERE a = '%s'" % user)  # E: LS101 CursorWrapper.execute
        cur.execute("SELECT * FROM t WHERE a = %s", [user])
    RawSQL(f"SELECT {user}", [])  # E: LS101 RawSQL
    RawSQL("SELECT %s", [user])
    DjangoTemplate(user)  # E: LS401 Template
    DjangoTemplate("{{ u }}")
    mark_safe(f"<i>{user}</i>")  # E: LS402 mark_safe
    mark_safe("<br>")
    format_html(f"<b>{user}</b>")  # E: LS402 format_html
    format_html("<b>{}</b>", user)


def templates(user: str) -> None:
    jinja2.Environment().from_string("Hello " + user)  # E: LS401 Jinja2 Environment.from_string
    jinja2.Environment().from_string("Hello {{ name }}").render(name=user)
    jinja2.Template(f"Hi {user}")  # E: LS401 Template
    jinja2.Template("Hi {{ n }}").render(n=user)
    render_template_string("<p>" + user + "</p>")  # E: LS401 Flask render_template_string
    render_template_string("<p>{{ u }}</p>", u=user)


def markup(user: str) -> None:
    Markup("<b>" + user + "</b>")  # E: LS402 markupsafe.Markup
    Markup("<b>%s</b>") % user
    Markup("<b>{}</b>").format(user)
    Markup(escape(user))


def remote(user: str) -> None:
    client = paramiko.SSHClient()
    client.exec_command("ls " + user)  # E: LS201 paramiko SSHClient.exec_command
    client.exec_command("ls /tmp")
"""
MARKED = [
    (n, *text.split("# E: ")[1].split(" ", 1))
    for n, text in enumerate(APP.splitlines(), 1)
    if "# E: " in text
]
# What the test extras install: each package's base is found and tightened.
PACKAGES = {
    "MySQLdb",
    "aiosqlite",
    "django",
    "flask",
    "jinja2",
    "markupsafe",
    "paramiko",
    "psycopg2",
    "pymysql",
    "sqlalchemy",
}


def _installed(package: str) -> Path | None:
    """Where the test environment has ``package`` (a stub package folder), if it has it."""
    sites = thirdparty.site_packages(Path(sys.executable))
    return next((s / package for s in sites if (s / package).is_dir()), None)


def _stub_packages_installed() -> None:
    for package in ("psycopg2-stubs", "pymysql-stubs", "django-stubs", "paramiko-stubs", "flask"):
        if _installed(package) is None:
            pytest.skip(f"{package} is not installed (the test extras install it)")


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_each_library_injection_is_a_finding_of_its_rule_named_after_its_sink(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each marked line is a finding of its rule with its sink named, under every checker;
    each safe twin (query parameters, psycopg2.sql composition, a literal template with values
    in its context, Markup's escaping `%` and `format`) stays silent."""
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    _stub_packages_installed()
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    status = main(
        ["check", "--checker", name, "--format", "json", "--cache-dir", str(tmp_path / "cache"),
         str(tmp_path / "app.py")]
    )  # fmt: skip
    document = json.loads(capsys.readouterr().out)
    assert status == EXIT_FINDINGS
    found = [(f["line"], f["rule"], f["sink"]) for f in document["findings"]]
    assert [(line, rule) for line, rule, _ in found] == [(line, rule) for line, rule, _ in MARKED]
    for (line, _, sink), (_, _, named) in zip(found, MARKED):
        assert named in sink, f"line {line}: {sink}"
    covered = {c["package"] for c in document["third_party"] if c["covered"]}
    # All but mysqlclient, which the app does not import: only what the files reach is built.
    assert covered == PACKAGES - {"MySQLdb"}
    skipped = {c["package"]: c["why"] for c in document["third_party"] if not c["covered"]}
    assert skipped["MySQLdb"] == thirdparty.NOT_IMPORTED


def test_without_the_overlay_no_checker_sees_these_sinks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stock stub packages take any str: with no specification for them, pyright reports
    nothing, so every finding above comes from our tightening.  What remains are the queries
    built in view and passed to an execute typed str: LS904, not judged by the checker."""
    _stub_packages_installed()
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    empty = tmp_path / "specs"
    (empty / "stdlib").mkdir(parents=True)
    shutil.copytree(specs_dir() / "stdlib", empty / "stdlib", dirs_exist_ok=True)
    monkeypatch.setattr(thirdparty, "specs_dir", lambda: empty)
    status = main(
        ["check", "--checker", "pyright", "--format", "json", "--cache-dir",
         str(tmp_path / "cache"), str(tmp_path / "app.py")]
    )  # fmt: skip
    assert status in (EXIT_OK, EXIT_FINDINGS)
    found = json.loads(capsys.readouterr().out)["findings"]
    assert {f["rule"] for f in found} <= {"LS904"}
    assert all("typed with str" in f["checker_messages"][0] for f in found)


def test_a_specification_that_no_longer_applies_leaves_its_package_uncovered(
    tmp_path: Path,
) -> None:
    """A stub package whose cursor has no execute any more: psycopg2 is not covered, the
    reason names the specification line, and PyMySQL is still tightened."""
    site = tmp_path / "site"
    (site / "psycopg2-stubs").mkdir(parents=True)
    (site / "types_psycopg2-2.9.0.dist-info").mkdir()
    (site / "psycopg2-stubs" / "__init__.pyi").write_text("", encoding="utf-8")
    (site / "psycopg2-stubs" / "_psycopg.pyi").write_text("class cursor: ...\n", "utf-8")
    (site / "psycopg2-stubs" / "sql.pyi").write_text(
        "class SQL:\n    def __init__(self, string: str) -> None: ...\n", "utf-8"
    )
    real = _installed("pymysql-stubs")
    if real is None:
        pytest.skip("pymysql-stubs is not installed (the test extras install it)")
    shutil.copytree(real, site / "pymysql-stubs")
    coverage = {c.package: c for c in thirdparty.build_from([site], "default", tmp_path / "out")}
    assert not coverage["psycopg2"].covered
    assert "_psycopg.pyi:" in coverage["psycopg2"].why
    assert "types-psycopg2 2.9.0" in coverage["psycopg2"].why  # the installed version
    assert "cursor.execute is not defined" in coverage["psycopg2"].why
    assert coverage["pymysql"].covered
    entry = coverage["pymysql"].root
    assert entry is not None
    tightened = (entry / "pymysql" / "cursors.pyi").read_text(encoding="utf-8")
    assert "def execute(self, query: LiteralString" in tightened
    assert (entry / "pymysql-stubs" / "cursors.pyi").read_text("utf-8") == tightened
    assert coverage["psycopg2"].root is None
    assert not list((tmp_path / "out").glob("psycopg2*"))


def test_a_package_installed_without_its_stub_package_is_said_not_covered(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    (site / "pymysql").mkdir(parents=True)
    (site / "pymysql" / "__init__.py").write_text("", encoding="utf-8")
    coverage = {c.package: c for c in thirdparty.build_from([site], "default", tmp_path / "out")}
    assert "PyMySQL is installed without types" in coverage["pymysql"].why
    assert "install its stub package" in coverage["pymysql"].why
    assert coverage["psycopg2"].why == thirdparty.NOT_INSTALLED


def test_an_interpreter_that_cannot_answer_is_an_error(tmp_path: Path) -> None:
    broken = tmp_path / "python"
    broken.write_text("#!/bin/sh\nexit 3\n", encoding="utf-8")
    broken.chmod(0o755)
    with pytest.raises(TypingLiteralStringError, match="point --python"):
        thirdparty.site_packages(broken)
    assert subprocess.run([str(broken)], check=False).returncode == 3


MYSQLCLIENT = """\
from MySQLdb.cursors import Cursor


def q(cur: Cursor, user: str) -> None:
    cur.execute("SELECT * FROM t WHERE name = '%s'" % user)
    cur.execute("SELECT * FROM t WHERE name = %s", (user,))
    cur.executemany("INSERT INTO t VALUES (" + user + ")", [])
"""


def _check_file(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, needs: str
) -> tuple[int, dict[str, Any]]:
    """``check --format json`` of one file holding ``text`` with the checker ``name``; the
    test is skipped when the checker, or the installed folder ``needs``, is missing."""
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    if _installed(needs) is None:
        pytest.skip(f"{needs} is not installed (the test extras install it)")
    (tmp_path / "app.py").write_text(text, encoding="utf-8")
    status = main(
        ["check", "--checker", name, "--format", "json", "--cache-dir", str(tmp_path / "cache"),
         str(tmp_path / "app.py")]
    )  # fmt: skip
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return status, document


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_mysqlclient_execute_gets_the_annotation_its_base_lacks(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """types-mysqlclient leaves `execute(self, query, args=None)` unannotated: ours is LS101.
    Its `executemany` already takes LiteralString: an SQL sink all the same (LS101)."""
    status, document = _check_file(name, tmp_path, capsys, MYSQLCLIENT, "MySQLdb-stubs")
    assert status == EXIT_FINDINGS
    findings = document["findings"]
    assert [(f["line"], f["rule"]) for f in findings] == [(5, "LS101"), (7, "LS101")]
    assert findings[0]["sink"] == "mysqlclient BaseCursor.execute"


def test_only_the_packages_the_checked_files_reach_are_tightened(tmp_path: Path) -> None:
    """A file importing Flask gets Flask and what it requires (Jinja2, MarkupSafe: its
    templates are Jinja2's) tightened, nothing else; a file importing none builds nothing."""
    _stub_packages_installed()
    python = Path(sys.executable)
    flask = thirdparty.build(python, "default", tmp_path / "cache", {"flask", "os"})
    covered = {c.package for c in flask if c.covered}
    assert covered == {"flask", "jinja2", "markupsafe"}
    skipped = {c.package: c.why for c in flask if not c.covered}
    assert skipped["sqlalchemy"] == thirdparty.NOT_IMPORTED
    assert sorted(p.name.split("-")[0] for p in (tmp_path / "cache" / "third-party").iterdir()) == [
        "flask", "jinja2", "markupsafe"
    ]  # fmt: skip
    nothing = thirdparty.build(python, "default", tmp_path / "empty", {"sqlite3"})
    assert not any(c.covered for c in nothing)
    assert not (tmp_path / "empty" / "third-party").exists()


SQLITE_UTILS = """\
from sqlite_utils import Database


def lookup(db: Database, user: str) -> None:
    db.execute(f"SELECT * FROM users WHERE name = '{user}'")
    db.execute("SELECT * FROM users WHERE name = ?", [user])
    for row in db.query("SELECT * FROM users WHERE name = '" + user + "'"):
        print(row)
    list(db["users"].rows_where("name = ?", [user]))
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_sqlite_utils_runs_sql_text_that_must_be_literal(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """sqlite-utils' Database.execute and query run their text as it is: an f-string or a
    concatenation there is LS101, named after the method; the same query with its value as a
    parameter is proven literal."""
    status, document = _check_file(name, tmp_path, capsys, SQLITE_UTILS, "sqlite_utils")
    assert status == EXIT_FINDINGS
    found = [(f["line"], f["rule"], f["sink"]) for f in document["findings"]]
    assert found == [
        (5, "LS101", "sqlite-utils Database.execute"),
        (7, "LS101", "sqlite-utils Database.query"),
    ]
    assert document["sink_calls"]["proven"] == 2  # line 6's, and rows_where's on line 9
    covered = {c["package"]: c["why"] for c in document["third_party"] if c["covered"]}
    assert covered["sqlite_utils"].startswith("sqlite-utils ")
