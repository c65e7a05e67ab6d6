"""test_cases/<distribution>/: the third-party cases hold under every checker with the
packages of this environment tightened, and their `# E` lines come from our tightening."""

from __future__ import annotations

import pytest

from scripts.regression.markers import read_markers
from scripts.regression.matrix import MISSING, run_third_party, third_party_case_files
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.core.errors import TypingLiteralStringError

# Typed with LiteralString by its own authors: its cases need no specification of ours.
SELF_TYPED = {"psycopg"}


def _checker(name: str) -> None:
    if not CHECKERS[name].is_installed():
        pytest.skip(f"{name} is not installed")


@pytest.mark.parametrize(
    "name", ["pyright", "mypy+plugin", "basedpyright", "ty", "zuban", "pyrefly"]
)
def test_every_checker_matches_the_markers(name: str) -> None:
    _checker(name)
    try:
        outcome = run_third_party(CHECKERS[name])
    except TypingLiteralStringError as error:
        pytest.skip(str(error))  # a package of the test extras is missing here
    assert {path.parent.name for path in third_party_case_files()} >= {
        "psycopg2", "PyMySQL", "mysqlclient", "SQLAlchemy", "Django", "Jinja2", "Flask",
        "MarkupSafe", "aiosqlite", "paramiko", "psycopg",
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
    assert all(d.kind == MISSING for d in outcome.deviations)
