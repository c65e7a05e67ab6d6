"""Wrong labels and tool mistakes from issue 28 ("False alarms and wrong labels"), each in the
shape it had in real code."""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.checking import found_rules, marked_rules
from typing_literalstring.analysis.fix_hints import hint
from typing_literalstring.analysis.literal_errors import is_about_literal_string
from typing_literalstring.checkers import CHECKERS, Diagnostic
from typing_literalstring.commands import EXIT_FINDINGS, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.specs.sinks import NON_LITERAL, UNVERIFIED, Rule

PYPROJECT = '[project]\nname = "app"\nversion = "0"\n'


def _check(
    name: str,
    project: Path,
    capsys: pytest.CaptureFixture[str],
    *options: str,
    cache: Path | None = None,
    path: str = "app.py",
) -> tuple[int, dict[str, Any]]:
    """``check`` of ``project/path`` in JSON (``name``: pyright or mypy, which runs with our
    plugin): its exit status and its document."""
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    status = main(
        ["check", "--checker", name, "--format", "json", "--cache-dir",
         str(cache or project / "cache"), *options, str(project / path)]
    )  # fmt: skip
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return status, document


def _project(tmp_path: Path, program: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "app.py").write_text(program, encoding="utf-8")
    return tmp_path


# -- 3. A literal module constant stays literal when mypy reruns from its cache ---------------

# The module constant of a logging format, used in a function (the shape).
LOG_CONSTANT = """\
import logging

logger = logging.getLogger(__name__)

MESSAGE = "user %s"


def greet(user: str) -> None:
    logger.info(MESSAGE, user)
"""


def test_a_literal_module_constant_stays_literal_after_an_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first check is clean; after an edit of the file, mypy rechecks it with every other
    module (the tightened logging stubs) from its incremental cache.  No type analysis then
    meets LiteralString, the plugin did not know its alias, and `MESSAGE` stayed `str`: LS301
    on the second check, and on every one after it."""
    project = _project(tmp_path, LOG_CONSTANT)
    cache = tmp_path / "shared-cache"  # kept across the runs, as ~/.cache is
    assert _check("mypy", project, capsys, cache=cache)[0] == EXIT_OK
    (project / "app.py").write_text(LOG_CONSTANT + "\n# edited\n", encoding="utf-8")
    status, document = _check("mypy", project, capsys, cache=cache)
    assert document["findings"] == []
    assert status == EXIT_OK


def test_the_plugin_marks_constants_when_every_declaration_comes_from_the_cache(
    tmp_path: Path,
) -> None:
    """The same under mypy itself: lib.py (the only module that writes LiteralString) comes
    from the cache when main.py was edited."""
    pytest.importorskip("mypy")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = typing_literalstring.mypy\n")
    (tmp_path / "lib.py").write_text(
        "from typing_extensions import LiteralString\n"
        "def sink(s: LiteralString, *args: object) -> None: ...\n",
        encoding="utf-8",
    )
    program = (
        "from lib import sink\n"
        'MESSAGE = "user %s"\n'
        "def greet(user: str) -> None:\n"
        "    sink(MESSAGE, user)\n"
        "    sink(user)\n"
    )

    def errors() -> list[str]:
        proc = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file=mypy.ini", "--cache-dir=cache",
             "--no-error-summary", "main.py", "lib.py"],
            cwd=tmp_path, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert proc.returncode in (0, 1), proc.stdout + proc.stderr
        return [line.split(":")[1] for line in proc.stdout.splitlines() if ": error:" in line]

    (tmp_path / "main.py").write_text(program, encoding="utf-8")
    assert errors() == ["5"]
    (tmp_path / "main.py").write_text(program + "# edited\n", encoding="utf-8")
    assert errors() == ["5"]


# -- 2. An override error is no finding ------------------------------------------------------

# Django's LabelCommand, unannotated as Django ships it (django-extensions was checked without
# django-stubs): pyright infers `handle`'s return type from `"\n".join(output)`, LiteralString.
DJANGO_BASE = """\
class BaseCommand:
    def handle(self, *args, **options):
        raise NotImplementedError


class LabelCommand(BaseCommand):
    def handle(self, *labels, **options):
        output = []
        for label in labels:
            label_output = self.handle_label(label, **options)
            if label_output:
                output.append(label_output)
        return "\\n".join(output)

    def handle_label(self, label, **options):
        raise NotImplementedError
"""
MANAGEMENT_COMMAND = """\
from typing_extensions import LiteralString

from management import LabelCommand


class Command(LabelCommand):
    def handle(self, *args: str, **options: object) -> str:
        return ", ".join(args)


class Base:
    def title(self) -> LiteralString:
        return "report"


class Report(Base):
    def title(self) -> str:
        return str(object())
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_method_override_error_is_no_finding(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pyright's reportIncompatibleMethodOverride on `Command.handle` (the base's inferred
    LiteralString against the override's `str`), and the plugin's error on `Report.title`
    against a declared LiteralString, were LS001; ty and zuban never made one a finding.  No
    string reaches anything at a `def`: both stay the checker's other errors."""
    project = _project(tmp_path, MANAGEMENT_COMMAND)
    (project / "management.py").write_text(DJANGO_BASE, encoding="utf-8")
    status, document = _check(name, project, capsys, "--show-other")
    assert document["findings"] == []
    assert status == EXIT_OK
    overrides = {o["line"] for o in document["other"] if "supertype" in o["message"]} | {
        o["line"] for o in document["other"] if "overrides class" in o["message"]
    }
    assert overrides == ({7, 17} if name == "pyright" else {17})


@pytest.mark.parametrize(
    ("checker", "code", "message"),
    [
        (  # pyrefly 1.5.0 (was LS001)
            "pyrefly",
            "bad-override",
            "Class member `Report.title` overrides parent class `Base` in an inconsistent "
            "manner\n  `Report.title` has type `() -> str`, which is not assignable to "
            "`() -> LiteralString`, the type of `Base.title`",
        ),
        (  # our plugin's, on a parameter narrowed to LiteralString (was LS001)
            "mypy+plugin",
            "literal-string",
            'Argument 1 of "run" is incompatible with supertype "Base"; supertype defines the '
            'argument type as "str"',
        ),
    ],
)
def test_override_errors_of_every_checker_are_not_about_literal_strings(
    checker: str, code: str, message: str
) -> None:
    assert not is_about_literal_string(Diagnostic("x.py", 1, 1, "error", message, code), checker)


# -- 1. An LS901 at a Django cursor is labelled Django's, not sqlite3's ----------------------

# Each file imports one driver: the label follows what the file imports.
ANY_SQL = {
    "django_view.py": """\
import json

from django.db import connection


def lookup(body: str) -> None:
    sql = json.loads(body)
    connection.cursor().execute(sql)
""",
    "sqlite_view.py": """\
import json
import sqlite3


def lookup(body: str, conn: sqlite3.Connection) -> None:
    sql = json.loads(body)
    conn.execute(sql)
""",
    "psycopg_view.py": """\
import json

import psycopg


def lookup(body: str, conn: psycopg.Connection) -> None:
    sql = json.loads(body)
    conn.execute(sql)
""",
}


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_an_any_at_a_driver_cursor_is_labelled_by_the_files_imports(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--report-any` named every `execute` by the SINK_NAMES table, "sqlite3
    Connection/Cursor.execute", whatever the receiver; now as LS101 names it: by the
    specification the refusal matches among the packages the file imports, else by the callee
    the checker names (mypy: psycopg 3's `Connection.execute`), else, with no sqlite3 imported
    and no class named (pyright's "no overload matches" at psycopg 3), a DB-API cursor."""
    for module in ("django", "psycopg"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    for file, text in ANY_SQL.items():
        (tmp_path / file).write_text(text, encoding="utf-8")
    cache = tmp_path / ".cache"  # hidden: not checked with the project
    status, document = _check(name, tmp_path, capsys, "--report-any", cache=cache, path=".")
    assert status == EXIT_FINDINGS
    labels = {Path(f["path"]).name: f["sink"] for f in document["findings"] if f["rule"] == "LS901"}
    assert labels == {
        "django_view.py": "Django CursorWrapper.execute",
        "sqlite_view.py": (
            "sqlite3 Connection/Cursor.execute"
            if name == "pyright"
            else "sqlite3.Connection.execute"
        ),
        "psycopg_view.py": (
            "a DB-API cursor's execute" if name == "pyright" else "Connection.execute"
        ),
    }


# -- 5. The fix at a markup sink offers no SQL helper -----------------------------------------

ANY_MARKUP = """\
import json
import sqlite3

from django.utils.safestring import mark_safe
from markupsafe import Markup


def badge(body: str) -> str:
    payload = json.loads(body)
    return Markup(payload["html"]) + mark_safe(payload["title"])


def lookup(body: str, conn: sqlite3.Connection) -> None:
    conn.execute(json.loads(body))
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_the_fix_at_a_markup_sink_offers_no_sql_helper(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """LS901's fix ended with `typing_literalstring.sql.pick` at every sink, `Markup(...)` and
    `mark_safe(...)` included; the allow-list helper is now offered at SQL text only."""
    status, document = _check(name, _project(tmp_path, ANY_MARKUP), capsys, "--report-any")
    assert status == EXIT_FINDINGS
    fixes = {f["line"]: f["fix"] for f in document["findings"] if f["rule"] == "LS901"}
    assert sorted(fixes) == [10, 14]  # both markup calls are on line 10
    assert "typing_literalstring.sql" not in fixes[10]
    assert "typing_literalstring.sql.pick" in fixes[14]


@pytest.mark.parametrize(
    ("rule", "family", "code", "sql_helper"),
    [
        (UNVERIFIED, "markup", "value", False),
        (UNVERIFIED, "template", "value", False),
        (UNVERIFIED, "SQL", "value", True),
        (UNVERIFIED, "", "value", True),  # the project's own LiteralString parameter
        # An LS001 at a markup call (a Markup subclass declaring LiteralString): its text
        # before `{name}` reads like SQL's ", ", but no SQL helper fixes markup.
        (NON_LITERAL, "markup", 'f"<b>{title}</b>, {name}"', False),
        (NON_LITERAL, "", 'f"SELECT {title}, {name} FROM t"', True),
    ],
)
def test_the_hint_is_the_sink_familys(rule: Rule, family: str, code: str, sql_helper: bool) -> None:
    said = hint(rule, ast.parse(code, mode="eval").body, frozenset(), family)
    assert ("typing_literalstring.sql" in said) is sql_helper


# -- 4. A str appended to a list split from a literal is no finding --------------------------

# beets 2.14.1, beetsplug/ipfs.py (its three LS001 tool mistakes in IMPACT.md), with the
# counter-cases that keep their finding: a list joined into SQL, a list declared LiteralString.
SPLIT_ARGV = """\
import os
import sqlite3
import subprocess
import tempfile

from typing_extensions import LiteralString


def command_output(cmd: list[str]) -> bytes:
    return subprocess.run(cmd, capture_output=True, check=True).stdout


def ipfs_add(album_dir: bytes, nocopy: bool) -> bytes:
    if nocopy:
        cmd = "ipfs add --nocopy -q -r".split()
    else:
        cmd = "ipfs add -q -r".split()
    cmd.append(os.fsdecode(album_dir))
    return command_output(cmd)


def ipfs_get_from_hash(_hash: str) -> None:
    try:
        cmd = "ipfs get".split()
        cmd.append(_hash)
        command_output(cmd)
    except (OSError, subprocess.CalledProcessError):
        pass


def ipfs_publish() -> bytes:
    with tempfile.NamedTemporaryFile() as tmp:
        cmd = "ipfs add -q ".split()
        cmd.insert(3, tmp.name)
        cmd.extend([tmp.name])
        return command_output(cmd)


def git_log(path: str) -> None:
    argv = "git log".split()
    argv.append(path)
    subprocess.run(argv)


def joined(conn: sqlite3.Connection, column: str) -> None:
    columns = "id name".split()
    columns.append(column)  # LS001
    conn.execute("SELECT " + ", ".join(columns) + " FROM t")


def declared(path: str) -> None:
    argv: list[LiteralString] = ["git", "log"]
    argv.append(path)  # LS001
    subprocess.run(argv)
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_str_put_into_a_list_split_from_a_literal_is_no_finding(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`"ipfs get".split()` is `list[LiteralString]` to pyright and to our plugin, so
    `cmd.append(_hash)` was LS001 (pyright's hid only behind the name `cmd`, read as the
    standard module; `argv` showed it).  No declaration asked for literal items and the list
    is an argument list run without a shell: no finding.  A list joined into SQL keeps it (the
    checker then proves the joined text literal), and so does a list declared LiteralString."""
    status, document = _check(name, _project(tmp_path, SPLIT_ARGV), capsys)
    assert status == EXIT_FINDINGS
    assert found_rules(document) == marked_rules(SPLIT_ARGV)


# A local list named like a standard module (`cmd`), declared LiteralString and joined into SQL:
# the joined text is proven literal, so the refused append is the one trace of the injection.
LOCAL_NAMED_LIKE_A_MODULE = """\
import sqlite3

from typing_extensions import LiteralString


def columns(conn: sqlite3.Connection, column: str) -> None:
    cmd: list[LiteralString] = ["SELECT", "a", "FROM", "t"]
    cmd.append(column)  # LS001
    conn.execute(" ".join(cmd))


def normalised(path: str | None) -> str:
    import os

    return os.path.join("/srv", path)
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_local_named_like_a_standard_module_is_no_call_of_it(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pyright names no class, so `cmd.append` was the finding's callee, and `cmd` read as the
    standard module `cmd`, whose literal-preserving overloads are never findings: the error
    went to the other errors.  mypy, which says "of "list"", reported it.  A module imported
    inside a function is still the module (`os.path.join` of a `str | None` stays an other
    error)."""
    status, document = _check(name, _project(tmp_path, LOCAL_NAMED_LIKE_A_MODULE), capsys)
    assert status == EXIT_FINDINGS
    found = {(f["line"], f["rule"]) for f in document["findings"]}
    assert found == {(8, "LS001")}


def test_a_second_report_any_check_keeps_its_findings_under_mypy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--report-any` checks copies in the check's own work folder.  With the incremental cache
    kept between checks, mypy found the unchanged copies fresh and replayed their errors under
    the first check's paths: the second check had no LS901 (found while testing item 1)."""
    project = _project(tmp_path, ANY_SQL["sqlite_view.py"])
    cache = tmp_path / ".cache"
    for _ in range(2):
        status, document = _check("mypy", project, capsys, "--report-any", cache=cache)
        assert [f["rule"] for f in document["findings"]] == ["LS901"]
        assert status == EXIT_FINDINGS


# -- An LS902 at a driver's cursor is named by the file's imports too --------------------------

BUILT_FROM_ANY = {
    "django_view.py": """\
import json

from django.db import connection


def built(body: str) -> None:
    data = json.loads(body)
    connection.cursor().execute("SELECT * FROM t WHERE x = " + data["x"])
""",
    "psycopg_view.py": """\
import json

import psycopg


def built(body: str, conn: psycopg.Connection) -> None:
    conn.execute("SELECT " + json.loads(body))
""",
}


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_text_built_from_any_at_a_driver_cursor_is_labelled_by_the_files_imports(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default check's LS902 took its name from the SINK_NAMES table, "sqlite3
    Connection/Cursor.execute", at a Django cursor and at psycopg 3 (issue 28)."""
    for module in ("django", "psycopg"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    for file, text in BUILT_FROM_ANY.items():
        (tmp_path / file).write_text(text, encoding="utf-8")
    status, document = _check(name, tmp_path, capsys, cache=tmp_path / ".cache", path=".")
    assert status == EXIT_FINDINGS
    labels = {Path(f["path"]).name: (f["rule"], f["sink"]) for f in document["findings"]}
    assert labels == {
        "django_view.py": ("LS902", "Django CursorWrapper.execute"),
        # psycopg 3 types its own execute with LiteralString: named as its.
        "psycopg_view.py": ("LS902", "psycopg Connection/Cursor.execute"),
    }
