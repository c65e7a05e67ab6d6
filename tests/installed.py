"""What a test needs installed: skipped with the reason when it is missing here, and failed
when it is installed but our tightening no longer applies to it."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Iterable

import pytest

from typing_literalstring.checkers import CHECKERS, Checker
from typing_literalstring.specs import thirdparty


def installed_checker(name: str) -> Checker:
    """The checker ``name``, or skip the test saying it is missing."""
    checker = CHECKERS[name]
    if not checker.is_installed():
        pytest.skip(f"{name} is not installed")
    return checker


def require_tightened(coverage: Iterable[thirdparty.Coverage]) -> None:
    """Fail the test when one of these packages is installed but not tightened (a
    specification that no longer applies to the installed base: ours to fix, and skipping
    would leave its `# E` lines unchecked); else skip it when one is missing here."""
    chosen = list(coverage)
    stale = [c for c in chosen if not c.covered and not c.absent]
    if stale:
        reasons = dict.fromkeys(f"{c.package}: {c.why}" for c in stale)  # once per profile
        pytest.fail("\n".join(reasons), pytrace=False)
    absent = dict.fromkeys(_absence(c) for c in chosen if c.absent)
    if absent:
        pytest.skip("; ".join(absent))


def _absence(coverage: thirdparty.Coverage) -> str:
    if coverage.why == thirdparty.NOT_INSTALLED:
        return f"{coverage.package} is not installed"
    return f"{coverage.package}'s stub package is not installed"  # installed without types


def site_with_an_edited_stub(into: Path, stubs: str, module: str, old: str, new: str) -> Path:
    """``into`` made a site-packages folder holding only a copy of this interpreter's stub
    package ``stubs`` (``pymysql-stubs``) with ``old`` made ``new`` in ``module``: as if a
    release of the stub package had renamed what one of our specifications speaks of."""
    sites = thirdparty.site_packages(Path(sys.executable))
    installed = next((s / stubs for s in sites if (s / stubs).is_dir()), None)
    if installed is None:
        pytest.skip(f"{stubs} is not installed")
    shutil.copytree(installed, into / stubs)
    path = into / stubs / module
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path} no longer has {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return into


def pretend_sites(monkeypatch: pytest.MonkeyPatch, sites: list[Path]) -> None:
    """Have ``thirdparty`` find the installed packages in ``sites`` only, for this test."""

    def site_packages(python: Path) -> list[Path]:
        return sites

    monkeypatch.setattr(thirdparty, "site_packages", site_packages)


def with_mogrify_renamed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Only a copy of types-PyMySQL installed, with `Cursor.mogrify` renamed: as if a new
    release had dropped what our specification tightens."""
    site = site_with_an_edited_stub(
        tmp_path / "site", "pymysql-stubs", "cursors.pyi", "def mogrify(", "def render("
    )
    pretend_sites(monkeypatch, [site])  # nothing else installed: quick


def assert_failed_as_stale(raised: pytest.ExceptionInfo[BaseException]) -> None:
    """The test failed (not skipped) saying why the PyMySQL specification no longer applies."""
    assert raised.errisinstance(pytest.fail.Exception), f"skipped: {raised.value}"
    assert "the specification no longer applies" in str(raised.value)
    assert "Cursor.mogrify is not defined" in str(raised.value)
