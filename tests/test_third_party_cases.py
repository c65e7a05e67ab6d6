"""test_cases/<distribution>/: the third-party cases hold under every checker with the
packages of this environment tightened, and their `# E` lines come from our tightening."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Sequence

import pytest

from scripts.regression.markers import read_markers
from scripts.regression.matrix import MISSING, Outcome, run_third_party, third_party_case_files
from tests.installed import (
    assert_failed_as_stale,
    installed_checker,
    pretend_sites,
    require_tightened,
    with_mogrify_renamed,
)
from typing_literalstring.checkers import CHECKERS, Checker
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.tighten import PROFILES

# Typed with LiteralString by its own authors: its cases need no specification of ours.
SELF_TYPED = {"psycopg"}


def _checker(name: str) -> None:
    if not CHECKERS[name].is_installed():
        pytest.skip(f"{name} is not installed")


def _outcome(checker: Checker, files: Sequence[Path] | None = None) -> Outcome:
    """``run_third_party``; when a case file's package is not tightened, the test is skipped if
    the package (or its stub package) is missing here, and fails if our specification no
    longer applies to the installed one: a new release renamed a sink, and skipping would
    leave every `# E` line of the cases unchecked."""
    try:
        return run_third_party(checker, files)
    except TypingLiteralStringError as error:
        # Its error says only that a package is not tightened; the coverage says why.
        chosen = files if files is not None else third_party_case_files()
        distributions = {path.parent.name for path in chosen}
        specifications = thirdparty.specifications()
        # Only these packages: building SQLAlchemy's and Django's copies takes seconds.
        packages = {s.package for d in distributions for s in specifications.get(d, [])}
        coverage: list[thirdparty.Coverage] = []
        for profile in PROFILES:  # a specification may fail under one profile only
            with tempfile.TemporaryDirectory(prefix="tls-coverage-") as cache:
                built = thirdparty.build(Path(sys.executable), profile, Path(cache), packages)
            coverage += [c for c in built if c.distribution in distributions]
        require_tightened(coverage)
        pytest.fail(str(error), pytrace=False)  # every package is tightened: another error


@pytest.mark.parametrize(
    "name", ["pyright", "mypy+plugin", "basedpyright", "ty", "zuban", "pyrefly"]
)
def test_every_checker_matches_the_markers(name: str) -> None:
    _checker(name)
    outcome = _outcome(CHECKERS[name])
    assert {path.parent.name for path in third_party_case_files()} >= {
        "psycopg2", "PyMySQL", "mysqlclient", "SQLAlchemy", "Django", "Jinja2", "Flask",
        "MarkupSafe", "aiosqlite", "paramiko", "psycopg", "asyncpg", "sqlite-utils",
    }  # fmt: skip
    assert outcome.expected > 100
    assert outcome.deviations == []


def test_without_our_tightening_only_the_self_typed_errors_remain() -> None:
    """Untightened, every `# E` line is missed but those of packages typed with LiteralString
    themselves (psycopg 3), which need no specification: each expected error is ours."""
    _checker("pyright")
    outcome = run_third_party(CHECKERS["pyright"], stock=True)
    missing = {(d.file, d.line) for d in outcome.deviations if d.kind == MISSING}
    for path in third_party_case_files():
        marked = {(path.name, line) for line in read_markers(path).required}
        if path.parent.name in SELF_TYPED:
            assert not marked & missing, path
        else:
            assert marked <= missing, path
    # A package without types (asyncpg) is typed by its specification where it leads to the
    # sinks (`connect()` returns a Connection): untightened, those `assert_type` lines fail.
    typed_by_us = {f"check_{d.lower()}.py" for d in thirdparty.FROM_OWN_SIGNATURES}
    assert [
        d
        for d in outcome.deviations
        if d.kind != MISSING and not (d.file in typed_by_us and d.source.startswith("assert_type("))
    ] == []
    assert any(d.file in typed_by_us for d in outcome.deviations if d.kind != MISSING)


def _pymysql_cases() -> list[Path]:
    return [path for path in third_party_case_files() if path.parent.name == "PyMySQL"]


def test_a_specification_that_no_longer_applies_fails_the_cases(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """types-PyMySQL renaming `Cursor.mogrify`: its stub package is installed, so the cases
    fail with the reason rather than skip as if an extra were missing."""
    checker = installed_checker("pyright")  # its typeshed makes the stdlib overlay
    with_mogrify_renamed(monkeypatch, tmp_path)
    with pytest.raises((pytest.fail.Exception, pytest.skip.Exception)) as raised:
        _outcome(checker, _pymysql_cases())
    assert_failed_as_stale(raised)


def test_a_package_missing_here_skips_the_cases(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    checker = installed_checker("pyright")
    pretend_sites(monkeypatch, [tmp_path])
    with pytest.raises((pytest.fail.Exception, pytest.skip.Exception)) as raised:
        _outcome(checker, _pymysql_cases())
    assert raised.errisinstance(pytest.skip.Exception), f"failed: {raised.value}"
    assert str(raised.value) == "pymysql is not installed"
