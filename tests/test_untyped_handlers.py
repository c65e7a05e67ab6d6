"""Issue 45: untyped web handlers (tests/data/untyped_handlers) get the same outcome under mypy
as under pyright: request values read through helpers, sqlite3 opened by a helper module,
shell commands run through helpers and argument lists.

mypy types a call of an unannotated function Any, so before the plugin inferred their return
types (typing_literalstring/mypy/returns.py) 25 of the 35 sink calls were unverified (LS90x)
under mypy where pyright judged them: 9 proven, 1 finding, 25 unverified, against pyright's
11, 18 and 6.  Since a wrapper's inner call whose callers are judged is theirs (one flow, one
finding), 4 of those are marked `callers`: counted with a finding, reported where called.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from scripts.handlers_split import split
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands.cli import main

DATA = Path(__file__).resolve().parent / "data" / "untyped_handlers"
# Each sink call is marked at the end of its line with its rule, `proven`, or `callers` (a
# wrapper's inner call, whose flow is each caller's finding).
_MARK = re.compile(r"  # (LS\d{3}|proven|callers)$")


def marks(root: Path) -> dict[tuple[str, int], str]:
    """(path relative to ``root``, line) -> the marked outcome."""
    found: dict[tuple[str, int], str] = {}
    for file in sorted(root.rglob("*.py")):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            match = _MARK.search(line)
            if match:
                found[(file.relative_to(root).as_posix(), number)] = match[1]
    return found


def _check(name: str, app: Path, cache: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    main(["check", "--checker", name, "--format", "json", "--show-unverified",
          "--cache-dir", str(cache)])  # fmt: skip
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def _outcomes(document: dict[str, Any]) -> dict[tuple[str, int], str]:
    found = {(f["path"], f["line"]): f["rule"] for f in document["findings"]}
    found.update({(u["path"], u["line"]): "unverified" for u in document["unverified"]})
    return found


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "app"
    shutil.copytree(DATA, copy)
    monkeypatch.chdir(copy)
    return copy


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_each_sink_call_of_the_untyped_handlers_gets_its_marked_outcome(
    name: str, app: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same outcome with either checker: every marked rule, nothing else, and the calls
    marked proven proven (none unverified); the inner calls marked `callers` count as calls
    with a finding, and are no finding of their own."""
    document = _check(name, app, tmp_path / "cache", capsys)
    expected = marks(app)
    outcomes = _outcomes(document)
    assert {k: v for k, v in outcomes.items()} == {
        k: v for k, v in expected.items() if v not in ("proven", "callers")
    }
    assert document["sink_calls"]["total"] == len(expected)
    assert split(document) == (11, 22, 2)


def test_mypy_keeps_the_outcomes_after_an_edit_with_its_cache(
    app: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`check --checker mypy` keeps mypy's cache: after an edit of views.py alone, db.py,
    params.py and shell.py come from the cache (no function bodies in it), and the return
    types inferred for their functions from their symbol tables."""
    cache = tmp_path / "cache"
    cold = _outcomes(_check("mypy", app, cache, capsys))
    views = app / "notes" / "views.py"
    views.write_text(views.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert _outcomes(_check("mypy", app, cache, capsys)) == cold
    assert _outcomes(_check("mypy", app, cache, capsys)) == cold
