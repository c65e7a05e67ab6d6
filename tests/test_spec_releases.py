"""Each specification applies to every release in use, not only the one pinned for the tests:
the stub package is installed at an older release (pip, no dependencies, into a folder of its
own), and a project using the sinks is checked against it.

django-stubs moved what our Django specification names between releases: 4.2 defines `raw`
and `extra` on `BaseManager` (5.x on `Manager`), names `QuerySet` as an alias of `_QuerySet`,
lets `DjangoTemplates` inherit `from_string`, and types `mark_safe`'s str overload `Any`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.checking import check_project, found_rules, marked_rules
from tests.installed import pretend_sites

DJANGO_APP = """\
from typing import Any

from django.db.models import Manager
from django.db.models.query import QuerySet
from django.template.backends.django import DjangoTemplates
from django.utils.safestring import mark_safe


def views(qs: QuerySet[Any], objects: Manager[Any], engine: DjangoTemplates, user: str) -> None:
    qs.raw("SELECT * FROM app_user WHERE name = %s", [user])
    qs.raw(f"SELECT * FROM app_user WHERE name = '{user}'")  # LS101
    objects.raw("SELECT * FROM app_user WHERE name = '" + user + "'")  # LS101
    mark_safe("<b>literal</b>")
    mark_safe("<b>" + user + "</b>")  # LS402
    engine.from_string("Hello {{ name }}")
    engine.from_string(user)  # LS401
"""


def _installed(requirement: str, into: Path) -> Path:
    """``requirement`` installed without its dependencies into ``into``; skipped when the
    package index cannot be reached."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(into),
         requirement],
        capture_output=True,
        text=True,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot install {requirement} here: {done.stderr.strip()[-300:]}")
    return into


def _checked_with(
    requirement: str,
    distribution: str,
    app: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, Any]:
    """``app`` checked with pyright with only ``requirement`` installed: its marked lines are
    the findings; the coverage of ``distribution``."""
    site = _installed(requirement, tmp_path / "site")
    pretend_sites(monkeypatch, [site])
    (tmp_path / "app").mkdir()
    status, document = check_project("pyright", tmp_path / "app", {"app.py": app}, capsys)
    assert found_rules(document) == marked_rules(app)
    assert status == 1
    coverage: dict[str, Any] = next(
        p for p in document["third_party"] if p["distribution"] == distribution
    )
    return coverage


# 5.1 and later name things as the pinned 6.1 does (test_third_party_cases.py).
@pytest.mark.parametrize("version", ["4.2.7", "5.0.4"])
def test_the_django_specification_applies_to_each_release(
    version: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    django = _checked_with(
        f"django-stubs=={version}", "Django", DJANGO_APP, tmp_path, monkeypatch, capsys
    )
    assert django["covered"], django


SQLITE_UTILS_APP = """\
from sqlite_utils import Database


def report(db: Database, user: str) -> None:
    db.execute("SELECT * FROM users WHERE name = ?", [user])
    db.execute(f"SELECT * FROM users WHERE name = '{user}'")  # LS101
    db.query("SELECT * FROM users WHERE name = '" + user + "'")  # LS101
    list(db["users"].rows_where("name = ?", [user], order_by="id"))
    db["users"].count_where(f"name = '{user}'")  # LS101
"""


# sqlite-utils 3.x is typed with Optional[...] and without `from __future__ import annotations`
# (4.x writes `str | None`); the pinned 4.2.1 is tested in test_third_party*.py.
@pytest.mark.parametrize("version", ["3.30", "3.36", "3.39", "4.0"])
def test_the_sqlite_utils_specification_applies_to_each_release(
    version: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    covered = _checked_with(
        f"sqlite-utils=={version}", "sqlite-utils", SQLITE_UTILS_APP, tmp_path, monkeypatch, capsys
    )
    assert covered["covered"], covered
    assert f"sqlite-utils {version}" in covered["why"]
