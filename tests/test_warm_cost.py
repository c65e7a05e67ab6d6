"""Issue 45: what does not change between two checks is not done again, and what one check
needs of a file is found once.

- mypy keeps a module checked as a probed copy (``--shadow-file``) in its incremental cache
  only if the copy's mtime is the one it recorded: copies written anew on every check had
  every file holding a sink call checked again on every run (checkers/mypy.py);
- which third-party packages a check tightens is kept under a key read from the installed
  distributions' listing, not found again by reading every distribution's metadata
  (specs/thirdparty.py).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from typing_literalstring.analysis.statements import imported_packages
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.checkers.run_values import Invocation
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.stubspec import parse_spec

PYTHON = Path(sys.executable)
APP = (
    "import sqlite3\n\n\n"
    "def f(conn: sqlite3.Connection, user: str) -> None:\n"
    "    conn.execute(user)\n"
)
# A probed copy: the same lines, with questions added at the end of one.
COPY = APP.replace("conn.execute(user)", "conn.execute(user); reveal_type(user)")


def _run_mypy(tmp_path: Path, run: int, text: str = COPY) -> subprocess.CompletedProcess[str]:
    """One check's mypy run: a new work folder, a probed copy written anew in it."""
    checker = CHECKERS["mypy"]
    if not checker.is_installed():
        pytest.skip("mypy is not installed")
    workdir = tmp_path / f"run{run}"
    workdir.mkdir()
    copy = workdir / "copies" / "app.py"
    copy.parent.mkdir()
    copy.write_text(text, encoding="utf-8")
    invocation = Invocation(
        files=[tmp_path / "app.py"],
        python_version=None,
        overlay=None,
        extra_paths=[],
        workdir=workdir,
        project=None,
        incremental_cache=tmp_path / "incremental",
        shadows={(tmp_path / "app.py"): copy},
    )
    command, env = checker.command(invocation)
    return subprocess.run(
        [*command, "--verbose"], cwd=workdir, env={**os.environ, **env},
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_a_probed_copy_written_anew_keeps_mypys_cache(tmp_path: Path) -> None:
    """The second check's copy has the same text in a new file: mypy takes the module from
    its cache (before: 'Metadata abandoned for app: file app.py has different hash')."""
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    first = _run_mypy(tmp_path, 1)
    assert "Revealed type is" in first.stdout
    second = _run_mypy(tmp_path, 2)
    assert "Metadata fresh for app: file" in second.stderr, second.stderr[-3000:]
    assert second.stdout == first.stdout  # the replayed errors and notes


def test_a_changed_copy_is_checked_again(tmp_path: Path) -> None:
    """A copy of another text gets another mtime: mypy checks it again."""
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    _run_mypy(tmp_path, 1)
    changed = _run_mypy(tmp_path, 2, COPY.replace("reveal_type(user)", "reveal_type(conn)"))
    assert "Metadata fresh for app: file" not in changed.stderr
    assert "sqlite3.Connection" in changed.stdout


def _site(tmp_path: Path) -> Path:
    """A site-packages folder holding PyMySQL's stub package, which we tighten."""
    sites = thirdparty.site_packages(PYTHON)
    real = next((s / "pymysql-stubs" for s in sites if (s / "pymysql-stubs").is_dir()), None)
    if real is None:
        pytest.skip("pymysql-stubs is not installed (the test extras install it)")
    site = tmp_path / "site"
    site.mkdir()
    shutil.copytree(real, site / "pymysql-stubs")
    info = site / "types_PyMySQL-1.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Name: types-PyMySQL\nVersion: 1.1.0\n", encoding="utf-8")
    (info / "top_level.txt").write_text("pymysql-stubs\n", encoding="utf-8")
    return site


def test_the_coverage_of_installed_packages_is_kept_until_they_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = _site(tmp_path)

    def only_site(python: Path) -> list[Path]:
        return [site]

    monkeypatch.setattr(thirdparty, "site_packages", only_site)
    cache = tmp_path / "cache"
    first = thirdparty.build(PYTHON, "default", cache, {"pymysql"})
    assert [c.package for c in first if c.covered] == ["pymysql"]

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the coverage was found again")

    with monkeypatch.context() as patched:
        patched.setattr(thirdparty, "Installed", refused)
        patched.setattr(thirdparty, "build_from", refused)
        told: list[tuple[int, ...]] = []

        def tell(*counts: int) -> None:
            told.append(counts)

        kept = thirdparty.build(PYTHON, "default", cache, {"pymysql"}, tell)
        assert kept == first
        assert told == [(len(first), len(first))]
        # Another profile, other imports: not the same answer.
        with pytest.raises(AssertionError, match="found again"):
            thirdparty.build(PYTHON, "strict", cache, {"pymysql"})
        with pytest.raises(AssertionError, match="found again"):
            thirdparty.build(PYTHON, "default", cache, {"pymysql", "flask"})
        # A distribution installed, or an overlay deleted from the cache: found again.
        (site / "other-1.0.dist-info").mkdir()
        with pytest.raises(AssertionError, match="found again"):
            thirdparty.build(PYTHON, "default", cache, {"pymysql"})
    again = thirdparty.build(PYTHON, "default", cache, {"pymysql"})
    assert again == first
    root = next(c.root for c in again if c.covered)
    assert root is not None
    shutil.rmtree(root)
    rebuilt = thirdparty.build(PYTHON, "default", cache, {"pymysql"})
    assert rebuilt == first
    assert root.is_dir()


def test_the_facts_of_a_file_are_found_once_while_its_tree_lives() -> None:
    """The callee index asks which packages a file imports for each call on `self`, and
    walked every node of the file each time (with the call stacks walked once per tree, not
    per resolver, a tenth of `check`'s own CPU time on huey 2.5.3)."""
    source = "import sqlite3\n\n\nclass A:\n    def f(self):\n        self.db.execute('x')\n"
    tree = ast.parse(source)
    first = imported_packages(tree)
    assert first == frozenset({"sqlite3"})
    assert imported_packages(tree) is first


def test_a_specification_reads_its_annotations_as_written(tmp_path: Path) -> None:
    """The specifications are read on every start, their text split into lines once: the
    annotations come out as `ast.get_source_segment` gives them, on one line or several."""
    spec = tmp_path / "mod.pyi"
    spec.write_text(
        "from typing_extensions import LiteralString\n\n\n"
        "def run(é: int, sql: LiteralString, args: tuple[\n"
        "    object, ...\n"
        "] = ...) -> None: ...\n",
        encoding="utf-8",
    )
    (function,) = parse_spec(spec, "mod.pyi").functions
    assert [(r.name, r.annotation) for r in function.retypes] == [
        ("é", "int"),
        ("sql", "LiteralString"),
        ("args", "tuple[\n    object, ...\n]"),
    ]
