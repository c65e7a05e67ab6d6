"""False alarms and wrong labels from real code (issue 28), each in the shape it had there."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.checking import check_project, found_rules, marked_rules
from typing_literalstring.commands import EXIT_FINDINGS

# haystack-ai 2.3.1 and llama-cpp-python 0.2.72 fixed template injection (CVE-2024-41950,
# CVE-2024-34359) by compiling on Jinja2's sandboxes, which inherit Environment.from_string;
# djangorestframework 3.15.2 fixed CVE-2024-21520 by escaping the header before marking it safe.
# An argument list with a `str | None` item, without a shell, is a type error of the base
# stubs, not shell injection (pyright names our overload's parameter: 3 cases in 16 packages).
PROGRAM = """\
import subprocess
from typing import Optional

import jinja2
from django.utils.html import escape
from django.utils.safestring import mark_safe
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEnvironment


class PromptBuilder:
    def __init__(self, template: str) -> None:
        self.template = SandboxedEnvironment().from_string(template)


class Formatter:
    def __init__(self, template: str) -> None:
        self._environment = ImmutableSandboxedEnvironment(
            trim_blocks=True, lstrip_blocks=True
        ).from_string(template)


def unsandboxed(template: str) -> jinja2.Template:
    return jinja2.Environment().from_string(template)  # LS401


def constructed(template: str) -> jinja2.Template:
    return jinja2.Template(template)  # LS401


def break_long_headers(header: str) -> str:
    if len(header) > 160 and "," in header:
        header = mark_safe("<br> " + ", <br>".join(escape(header).split(",")))
    return header


def unescaped_headers(header: str) -> str:
    return mark_safe("<br> " + ", <br>".join(header.split(",")))  # LS402


def no_shell(path: Optional[str], command: str) -> None:
    subprocess.run(["ls", path])
    subprocess.Popen(["git", "log", path], stdout=subprocess.PIPE)
    subprocess.run(command, shell=True)  # LS201
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_sandboxes_and_escaped_markup_are_no_sinks_and_templates_are_ls401(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sandboxed compilations and the escaped header have no finding (before the fix,
    pyright and mypy reported each: the sandboxes inherit our tightened ``from_string``); the
    unsandboxed template and the raw header keep theirs, under the family's rule (mypy's
    ``from_string`` and ``Template`` errors were LS001: its message writes our
    ``nodes.Template`` without the module)."""
    status, document = check_project(name, tmp_path, {"app.py": PROGRAM}, capsys)
    assert status == EXIT_FINDINGS
    assert found_rules(document) == marked_rules(PROGRAM)


# Jinja2 3.0's jinja2.Markup, in its shape: a subclass of markupsafe.Markup whose __new__ is
# unannotated, so our tightened parameter does not reach it: mypy reads it Any, and pyright
# gives an unannotated override's parameter the base's type when their names agree (Jinja2
# 3.0.3 and MarkupSafe 2.1.5 both say `base`; the MarkupSafe installed here says `object`).
SUBCLASS = """\
import markupsafe


class Markup(markupsafe.Markup):
    def __new__(cls, object="", encoding=None, errors="strict"):
        return super().__new__(cls, object, encoding, errors)


def page(user: str) -> None:
    Markup("<b>hello</b>")
    Markup("<b>" + "hello" + "</b>")
    Markup(user)  # LS402
    Markup("<b>%s</b>" % user)  # LS402
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_subclass_overriding_a_tightened_constructor_untyped_stays_a_sink(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, mypy counted `Markup(user)` proven (its reveal read `type[Markup]`)."""
    status, document = check_project(name, tmp_path, {"app.py": SUBCLASS}, capsys)
    assert status == EXIT_FINDINGS
    assert found_rules(document) == marked_rules(SUBCLASS)


# A project's own Environment subclass named like Jinja2's sandbox sandboxes nothing: its
# from_string keeps its finding, and a function compiling on it stays a wrapper.
FAKE_SANDBOX = """\
import jinja2


class SandboxedEnvironment(jinja2.Environment):
    pass


def render(template: str) -> jinja2.Template:
    return SandboxedEnvironment().from_string(template)  # LS401
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_class_only_named_like_a_sandbox_clears_nothing(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, document = check_project(name, tmp_path, {"app.py": FAKE_SANDBOX}, capsys)
    assert status == EXIT_FINDINGS
    assert found_rules(document) == marked_rules(FAKE_SANDBOX)


# peewee 4.5.3's playhouse/pwasyncio.py imports asyncpg and calls a DB-API cursor's
# `fetchmany(count)`: named like asyncpg's `fetchmany(query, args)`, it was an LS903.
ASYNC_DRIVER = """\
import asyncpg


async def rows(cursor, count):
    return await cursor.fetchmany(count)


async def more(cursor):
    return await cursor.fetch(10)


async def lookup(con: asyncpg.Connection, user: str) -> None:
    await con.fetch("SELECT * FROM t WHERE name = '" + user + "'")  # LS101
    await con.fetchval("SELECT 1")
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_common_word_is_an_asyncpg_sink_only_where_the_checker_says_it_is(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if importlib.util.find_spec("asyncpg") is None:
        pytest.skip("asyncpg is not installed")
    status, document = check_project(name, tmp_path, {"app.py": ASYNC_DRIVER}, capsys)
    assert found_rules(document) == marked_rules(ASYNC_DRIVER)
    assert document["sink_calls"]["total"] == 2
    assert document["sink_calls"]["proven"] == 1
    assert status == EXIT_FINDINGS


# peewee 4.5.3 defines its own `class SQL` (a raw-SQL node of its query builder) with an
# untyped __init__: it was judged as a subclass overriding psycopg2.sql.SQL's constructor.
OWN_SQL_CLASS = """\
class SQL:
    def __init__(self, sql, params=None):
        self.sql = sql
        self.params = params


def frame(start: str) -> SQL:
    return SQL("ROWS BETWEEN " + start + " AND CURRENT ROW")
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_projects_own_class_named_like_a_sink_inherits_nothing(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": OWN_SQL_CLASS}, capsys)
    assert not [f for f in document["findings"] if f["rule"] == "LS101"], document["findings"]
    assert not any("overrides the constructor" in f["message"] for f in document["findings"])


# djangorestframework 3.18.3's templatetags/rest_framework.py:76: a literal, then the name
# given to format_html in the value of its own reassignment.  mypy's plugin judged that use
# with the assignment it is in (format_html's result, no literal): a false LS402.
REASSIGNED = """\
from django.urls import NoReverseMatch, reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe


def optional_login(request):
    try:
        login_url = reverse("rest_framework:login")
    except NoReverseMatch:
        return ""

    snippet = "<li><a href='{href}?next={next}'>Log in</a></li>"
    snippet = format_html(snippet, href=login_url, next=escape(request.path))

    return mark_safe(snippet)


def from_user(request, user: str):
    snippet = user
    snippet = format_html(snippet, next=escape(request.path))  # LS402
    return mark_safe(snippet)
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_name_given_in_its_own_reassignment_is_its_earlier_value(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, document = check_project(name, tmp_path, {"app.py": REASSIGNED}, capsys)
    assert status == EXIT_FINDINGS
    assert found_rules(document) == marked_rules(REASSIGNED)


# peewee 4.5.3's playhouse/sqlite_ext.py:443: an untyped parameter's `and`/`or` choosing
# between two literals, passed to the project's own wrapper of a sink.  mypy types it
# `Literal['1']? | Literal['0']?`, which the plugin's reveal wrote `str`, and the plugin judged
# no `and`/`or`: a false LS101 through the wrapper.  The wrapper's inner call is no finding of
# its own: each caller's flow is judged at the caller (one flow, one finding).
CHOSEN_BY_TRUTHINESS = """\
import sqlite3


class FTSModel:
    conn = sqlite3.connect(":memory:")

    @classmethod
    def _fts_cmd(cls, cmd):
        return cls.conn.execute(cmd)  # its callers' flows: one finding each, none here

    @classmethod
    def automerge(cls, state=True):
        return cls._fts_cmd("automerge=%s" % (state and "1" or "0"))

    @classmethod
    def named(cls, state: bool, user: str):
        return cls._fts_cmd("automerge=%s" % (state and user or "0"))  # LS101
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_and_or_choosing_between_literals_reaches_a_wrapper_as_literal(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, document = check_project(name, tmp_path, {"app.py": CHOSEN_BY_TRUTHINESS}, capsys)
    assert status == EXIT_FINDINGS
    assert found_rules(document) == marked_rules(CHOSEN_BY_TRUTHINESS)


# djangorestframework 3.18.3's templatetags/rest_framework.py:187: a lookup in a dict display of
# literal strings, formatted into markup.  Each checker types the lookup `str` (a false LS402
# with both); the text is literal whatever the key.  A value that is not a literal, a call in
# the key, or a `**` merged in keeps the finding.
DICT_LOOKUP = """\
from django.utils.html import format_html
from django.utils.safestring import mark_safe


def format_value(value):
    if value is None or isinstance(value, bool):
        return mark_safe("<code>%s</code>" % {True: "true", False: "false", None: "null"}[value])
    return value


def shapes(value: bool, user: str, extra: dict[bool, str]) -> None:
    mark_safe({True: "<b>yes</b>", False: "<b>no</b>"}[value])
    mark_safe(f"<i>{ {True: 'yes', False: 'no'}[value] }</i>")
    format_html("<p>{}</p>" + {True: "!", False: "?"}[value], user)
    mark_safe("<code>%s</code>" % {True: "true", False: user}[value])  # LS402
    mark_safe("<code>%s</code>" % {True: "true", False: "false"}[value] + user)  # LS402
    mark_safe("<code>%s</code>" % {True: "true", False: "false"}[bool(user)])  # LS402
    mark_safe("<code>%s</code>" % {True: "true", **extra}[value])  # LS402
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_lookup_in_a_dict_display_of_literals_is_literal_text(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, document = check_project(name, tmp_path, {"app.py": DICT_LOOKUP}, capsys)
    assert status == EXIT_FINDINGS
    assert found_rules(document) == marked_rules(DICT_LOOKUP)
    # The four literal ones are sink calls proven literal, not calls left uncounted.
    assert document["sink_calls"]["proven"] == 4


# beets 2.14.1's beets/util/extension.py:93: an argument list displayed of literals where a
# shell may run it (`shell=os.name == "nt"`).  Each checker types the display `list[str]`, so
# it was a false LS201; a display with a str item, or a list from elsewhere, keeps it.
LITERAL_ARGV = """\
import os
import subprocess


def ffprobe_version():
    shell = os.name == "nt"
    return subprocess.run(["ffprobe", "-version"], capture_output=True, shell=shell)


def shapes(path: str, args: list[str]) -> None:
    shell = os.name == "nt"
    subprocess.run(("ffprobe", "-version"), shell=shell)
    subprocess.run(["ffprobe", path], capture_output=True, shell=shell)  # LS201
    subprocess.run(["ffprobe"] + ["-version"], shell=shell)
    subprocess.Popen(args, shell=os.name != "nt")  # LS201
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_display_of_literals_where_a_shell_may_run_it_is_proven(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, document = check_project(name, tmp_path, {"app.py": LITERAL_ARGV}, capsys)
    assert status == EXIT_FINDINGS
    assert found_rules(document) == marked_rules(LITERAL_ARGV)
