"""Out of memory, not everything lost (issue 43 item 12): a 20 MB generated module ran pyright
out of memory after minutes, every finding was lost and the advice was "run it again".  Now
the largest files are named with the way to leave them out, and the rest of the project is
checked without them (they are reported as not checked: exit 2).  The tests give node a
small heap (NODE_OPTIONS) so that a 4 MB module is enough."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.installed import installed_checker
from tests.processes import check_app, fake_pyright
from typing_literalstring.commands import EXIT_ERROR
from typing_literalstring.commands.cli import main

APP = (
    "import sqlite3\n\n\n"
    "def f(conn: sqlite3.Connection, user: str) -> None:\n"
    "    conn.execute(f'SELECT {user}')\n"
)
SMALL_HEAP = "--max-old-space-size=64"


def _generated(path: Path) -> None:
    """A 4 MB data module, as code generators write them."""
    rows = (f"    'k{i}': ('{'x' * 20}{i}', {i}, [{i}, {i + 1}])," for i in range(60000))
    path.write_text("DATA = {\n" + "\n".join(rows) + "\n}\n", encoding="utf-8")


def _check(
    paths: list[Path], cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    status = main(["check", "--cache-dir", str(cache_dir), "--format", "json", *map(str, paths)])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_rest_is_checked_without_the_largest_file(
    tmp_path: Path,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    installed_checker("pyright")
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    _generated(tmp_path / "generated.py")
    monkeypatch.setenv("NODE_OPTIONS", SMALL_HEAP)
    monkeypatch.chdir(tmp_path)
    status, out, err = _check([tmp_path], cache_dir, capsys)
    assert status == EXIT_ERROR, err
    document = json.loads(out)
    assert [(f["rule"], f["path"], f["line"]) for f in document["findings"]] == [
        ("LS101", "app.py", 5)
    ]
    (left,) = document["unparsable"]
    assert left["path"] == "generated.py"
    assert left["message"].startswith("left out: pyright ran out of memory checking all 2 files")
    assert "(4.0 MB)" in left["message"]
    assert "`exclude`" in left["message"]
    assert "NODE_OPTIONS=--max-old-space-size=" in left["message"]


def test_out_of_memory_again_names_the_largest_files_and_the_way_out(
    tmp_path: Path,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    installed_checker("pyright")
    for name in ("data_a.py", "data_b.py"):
        _generated(tmp_path / name)
    monkeypatch.setenv("NODE_OPTIONS", SMALL_HEAP)
    monkeypatch.chdir(tmp_path)
    status, out, err = _check([tmp_path], cache_dir, capsys)
    assert status == EXIT_ERROR
    assert out == ""
    assert "pyright ran out of memory checking 2 files (and again without the largest" in err
    assert "the largest: data_a.py (4.0 MB), data_b.py (4.0 MB)" in err
    assert "`exclude` in the [tool.typing-literalstring] table" in err
    assert "run it again" not in err


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize(
    "said",
    [
        # node's (pyright, basedpyright), Rust's allocator (ty, zuban, pyrefly), Python's (mypy).
        "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
        "memory allocation of 3145728 bytes failed",
        "Traceback (most recent call last):\n  ...\nMemoryError",
    ],
    ids=["node", "rust", "python"],
)
def test_each_runtimes_out_of_memory_is_recognised(
    said: str,
    tmp_path: Path,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    installed_checker("pyright")
    fake_pyright(tmp_path, monkeypatch, f"sys.stderr.write({said!r} + '\\n')\nos.abort()\n")
    status, err = check_app(tmp_path, cache_dir, capsys)
    assert status == EXIT_ERROR
    assert "pyright ran out of memory checking 1 file; the largest: " in err
