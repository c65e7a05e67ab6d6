"""Errors the checker gives on typeshed's own literal-preserving overloads are no findings.

typeshed gives `str.join`, `os.path.join` (`posixpath.join`, `ntpath.join`) and a few more an
overload taking LiteralString beside one taking any `str` (PEP 675 Appendix C).  The plain
checker, on its own stubs, reports these errors too: our tightening does not cause them, and no
literal would make them pass, so they are the project's other errors.  Each shape is the one a
tool mistake of IMPACT.md had in real code (pyright 1.1.414)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.checking import check_project, found_rules, marked_rules
from typing_literalstring.commands import EXIT_FINDINGS

# pelican 4.12.0, pelican/writers.py:162: the callee is an attribute holding `posixpath.join`
# (or a lambda), so no import names it; pyright's "No overloads for "join"" is about the None of
# `context.get(...)`.
PELICAN = """\
from posixpath import join as posix_join
from urllib.parse import urljoin


class Writer:
    def __init__(self, output_path, settings=None):
        self.settings = settings or {}
        if self.settings.get("RELATIVE_URLS"):
            self.urljoiner = posix_join
        else:
            self.urljoiner = lambda base, url: urljoin(
                base if base.endswith("/") else base + "/", str(url)
            )

    def write_feed(self, elements, context, path=None, url=None, feed_type="atom"):
        self.feed_domain = context.get("FEED_DOMAIN")
        self.feed_url = self.urljoiner(self.feed_domain, url or path)
"""

# web.py 0.76, web/browser.py:105: an unannotated helper of another module, whose return type
# pyright infers, makes pyright report `"".join(...)` against str.join's LiteralString overload.
WEB_NET = """\
def htmlunquote(text):
    text = text.replace("&quot;", '"')
    text = text.replace("&#39;", "'")
    text = text.replace("&gt;", ">")
    text = text.replace("&lt;", "<")
    text = text.replace("&amp;", "&")  # Must be done last!
    return text
"""
WEB_BROWSER = """\
from .net import htmlunquote


def get_text(e):
    return "".join([htmlunquote(c) for c in e.children() if isinstance(c, str)])
"""

# certbot 5.8.0, src/certbot/_internal/tests/crypto_util_test.py:65: `os` is the project's own
# `certbot.compat.os`, which re-exports the standard module (`from os import *`).
CERTBOT_COMPAT_OS = """\
from os import *  # noqa: F403
"""
CERTBOT_TEST = """\
from typing import NamedTuple, Optional

from . import compat_os as os


class Key(NamedTuple):
    file: Optional[str]
    pem: bytes


def test_success(workdir: str, key: Key) -> bool:
    return os.path.exists(os.path.join(workdir, key.file))
"""


def _check(
    tmp_path: Path, files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    package = tmp_path / "app"
    package.mkdir()
    (package / "__init__.py").write_text("")
    _, document = check_project(
        "pyright",
        tmp_path,
        {f"app/{name}": text for name, text in files.items()},
        capsys,
        "--show-other",
    )
    return document


def _other_lines(document: dict[str, Any], name: str) -> set[int]:
    return {o["line"] for o in document["other"] if o["path"].endswith(name)}


def test_an_attribute_holding_posixpath_join_is_no_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _check(tmp_path, {"writers.py": PELICAN}, capsys)
    assert document["findings"] == []
    assert 17 in _other_lines(document, "writers.py")


def test_str_join_reported_against_its_literal_overload_is_no_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _check(tmp_path, {"net.py": WEB_NET, "browser.py": WEB_BROWSER}, capsys)
    assert document["findings"] == []
    assert 5 in _other_lines(document, "browser.py")


def test_os_path_join_through_a_reexporting_module_is_no_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _check(
        tmp_path, {"compat_os.py": CERTBOT_COMPAT_OS, "crypto_test.py": CERTBOT_TEST}, capsys
    )
    assert document["findings"] == []
    assert 12 in _other_lines(document, "crypto_test.py")


# What stays a finding beside them: the project's own `join` taking LiteralString (a name typeshed
# also gives a literal-preserving overload), a tightened sink, and a tightened function called
# through an attribute (not named like a sink: LS001).
KEPT = """\
import sqlite3
from typing_extensions import LiteralString


class Query:
    def join(self, iterable: LiteralString) -> None: ...


def use(q: Query, conn: sqlite3.Connection, user: str) -> None:
    q.join(user)  # LS001
    conn.execute(f"SELECT {user}")  # LS101
    go = conn.execute
    go(user)  # LS001
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_literal_string_of_the_project_or_of_our_stubs_stays_a_finding(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, document = check_project(name, tmp_path, {"app.py": KEPT}, capsys)
    assert found_rules(document) == marked_rules(KEPT)
    assert status == EXIT_FINDINGS


# psycopg 3.3.9, psycopg/sql.py:260: psycopg declares `pre: LiteralString` and walks
# string.Formatter.parse over its own LiteralString template.  typeshed types parse with
# StrOrLiteralStr (literal-preserving), yet pyright solves it to str even for a literal
# argument, and our mypy plugin follows: the plain checker reports it on its own stubs, and the
# text is literal.  The same walk over a str the caller gave stays a finding, as does any
# other str assigned to a name declared LiteralString.
PSYCOPG_SQL = """\
import string
from typing_extensions import LiteralString


class SQL:
    _obj: LiteralString
    _formatter = string.Formatter()

    def __init__(self, obj: LiteralString) -> None:
        self._obj = obj

    def format(self) -> list[LiteralString]:
        rv: list[LiteralString] = []
        pre: LiteralString
        for pre, name, spec, conv in self._formatter.parse(self._obj):
            rv.append(pre)
        return rv

    def parse_users(self, user: str) -> None:
        pre: LiteralString
        for pre, name, spec, conv in self._formatter.parse(user):  # LS001
            pass

    def declared(self, user: str) -> None:
        text: LiteralString = user  # LS001
        replaced: LiteralString = user.replace("a", "b")  # LS001
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_literal_walked_by_formatter_parse_into_a_declared_name_is_no_finding(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"sql.py": PSYCOPG_SQL}, capsys, "--show-other")
    assert found_rules(document) == marked_rules(PSYCOPG_SQL)
    assert 15 in {o["line"] for o in document["other"]}
