"""The tightened third-party copies say what their bases say, but for the sinks: checked as
stubs they draw the base's own errors, and stubtest finds them as consistent with the runtime
as the base is."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.installed import (
    assert_failed_as_stale,
    pretend_sites,
    require_tightened,
    with_mogrify_renamed,
)
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.specs import thirdparty

# Stub packages whose copies are the base's files with only the sinks edited.
STUB_BASES = ("psycopg2", "pymysql", "MySQLdb", "paramiko", "django")


def _tightened(package: str, tmp_path: Path) -> tuple[thirdparty.Coverage, Path]:
    """The coverage of ``package`` and the folder of its tightened copy; the test is skipped
    when the package's stub package is missing here, and fails when our specification no
    longer applies to the installed one."""
    # Only the copy of this package (and of what it requires) is built: all of them take
    # seconds, SQLAlchemy's and Django's above all.
    built = thirdparty.build(Path(sys.executable), "default", tmp_path / "cache", [package])
    found = [c for c in built if c.package == package]
    assert found, f"no specification of ours speaks of {package}"
    require_tightened(found)
    (coverage,) = found
    assert coverage.root is not None  # covered: it has a copy
    return coverage, coverage.root


def _pyright_errors(files: list[Path], root: Path, work: Path) -> list[str]:
    """Each error by file and message: the copy's import of LiteralString moves lines down."""
    result = CHECKERS["pyright"].run(files, python_version="3.12", workdir=work)
    return sorted(
        f"{Path(d.path).relative_to(root)}: {d.message}"
        for d in result.diagnostics
        if d.severity == "error"
    )


@pytest.mark.parametrize("package", STUB_BASES)
def test_pyright_finds_the_same_errors_in_a_tightened_copy_as_in_its_base(
    package: str, tmp_path: Path
) -> None:
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    coverage, root = _tightened(package, tmp_path)
    installed = next(
        s / f"{package}-stubs"
        for s in thirdparty.site_packages(Path(sys.executable))
        if (s / f"{package}-stubs").is_dir()
    )
    # Both outside site-packages, where pyright checks a file as it checks the other.
    base = tmp_path / "base-copy" / f"{package}-stubs"
    shutil.copytree(installed, base)
    copy = root / f"{package}-stubs"
    touched = [
        spec.target.split("/", 1)[1]
        for spec in thirdparty.specifications()[coverage.distribution]
        if spec.package == package
    ]
    expected = _pyright_errors([base / t for t in touched], base, tmp_path / "base")
    assert _pyright_errors([copy / t for t in touched], copy, tmp_path / "copy") == expected


def _stubtest(module: str, search: Path | None, cwd: Path) -> list[str]:
    environment = {"MYPYPATH": str(search)} if search is not None else {}
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", module],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        env={**_environ(), **environment},
    )
    assert "not checking stubs" not in done.stdout, done.stdout
    return sorted(line for line in done.stdout.splitlines() if line.startswith("error: "))


def _environ() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "MYPYPATH"}


@pytest.mark.parametrize("package", ["pymysql", "paramiko"])
def test_stubtest_finds_the_tightened_copy_as_consistent_as_its_base(
    package: str, tmp_path: Path
) -> None:
    """Against the installed runtime (pure Python for PyMySQL; paramiko's too)."""
    _, root = _tightened(package, tmp_path)
    try:
        __import__(package)
    except ImportError:
        pytest.skip(f"{package} is not installed (its stubs are): stubtest needs the runtime")
    base = _stubtest(package, None, tmp_path)
    assert _stubtest(package, root, tmp_path) == base
    # It reads the copy (mypy takes `pymysql/`, not `pymysql-stubs/`, from MYPYPATH): a
    # parameter renamed there is reported.
    module, old, new = {
        "pymysql": ("cursors.pyi", "query: LiteralString", "sql_text: LiteralString"),
        "paramiko": ("client.pyi", "command: LiteralString", "cmd: LiteralString"),
    }[package]
    stub = root / package / module
    text = stub.read_text(encoding="utf-8")
    assert old in text
    stub.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert _stubtest(package, root, tmp_path) != base


def test_a_specification_that_no_longer_applies_fails_the_copies(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """types-PyMySQL renaming `Cursor.mogrify`: its stub package is installed, so a test of
    its copy fails with the reason rather than skip as if the stub package were missing."""
    with_mogrify_renamed(monkeypatch, tmp_path)
    with pytest.raises((pytest.fail.Exception, pytest.skip.Exception)) as raised:
        _tightened("pymysql", tmp_path)
    assert_failed_as_stale(raised)


def test_a_stub_package_missing_here_skips_the_copies(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pretend_sites(monkeypatch, [tmp_path])
    with pytest.raises((pytest.fail.Exception, pytest.skip.Exception)) as raised:
        _tightened("pymysql", tmp_path)
    assert raised.errisinstance(pytest.skip.Exception), f"failed: {raised.value}"
    assert str(raised.value) == "pymysql is not installed"
