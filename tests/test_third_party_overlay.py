"""The tightened third-party copies say what their bases say, but for the sinks: checked as
stubs they draw the base's own errors, and stubtest finds them as consistent with the runtime
as the base is."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.specs import thirdparty

# Stub packages whose copies are the base's files with only the sinks edited.
STUB_BASES = ("psycopg2", "pymysql", "MySQLdb", "paramiko", "django")


def _coverage(tmp_path: Path) -> dict[str, thirdparty.Coverage]:
    return {
        c.package: c
        for c in thirdparty.build(Path(sys.executable), "default", tmp_path / "cache")
        if c.covered
    }


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
    coverage = _coverage(tmp_path).get(package)
    if coverage is None or coverage.root is None:
        pytest.skip(f"{package}'s stub package is not installed (the test extras install it)")
    installed = next(
        s / f"{package}-stubs"
        for s in thirdparty.site_packages(Path(sys.executable))
        if (s / f"{package}-stubs").is_dir()
    )
    # Both outside site-packages, where pyright checks a file as it checks the other.
    base = tmp_path / "base-copy" / f"{package}-stubs"
    shutil.copytree(installed, base)
    copy = coverage.root / f"{package}-stubs"
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
    coverage = _coverage(tmp_path).get(package)
    if coverage is None or coverage.root is None:
        pytest.skip(f"{package}'s stub package is not installed (the test extras install it)")
    try:
        __import__(package)
    except ImportError:
        pytest.skip(f"{package} itself is not installed: stubtest needs the runtime")
    base = _stubtest(package, None, tmp_path)
    assert _stubtest(package, coverage.root, tmp_path) == base
    # It reads the copy (mypy takes `pymysql/`, not `pymysql-stubs/`, from MYPYPATH): a
    # parameter renamed there is reported.
    module, old, new = {
        "pymysql": ("cursors.pyi", "query: LiteralString", "sql_text: LiteralString"),
        "paramiko": ("client.pyi", "command: LiteralString", "cmd: LiteralString"),
    }[package]
    stub = coverage.root / package / module
    text = stub.read_text(encoding="utf-8")
    assert old in text
    stub.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert _stubtest(package, coverage.root, tmp_path) != base
