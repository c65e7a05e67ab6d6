"""test_cases/ under the real checkers: the markers hold, the record holds, and both can fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scripts import run_test_cases as runner
from typing_literalstring.checkers import CHECKERS, Checker
from typing_literalstring.overlay import build_overlay

SINK_FILES = sorted(p.name for p in runner.CASES.glob("check_*.py"))


def _checker(name: str) -> Checker:
    checker = CHECKERS[name]
    if not checker.is_installed():
        pytest.skip(f"{name} is not installed")
    return checker


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_checker_matches_its_record_on_every_target(name: str) -> None:
    checker = _checker(name)
    outcomes = runner.run_checker(checker, runner.TARGETS)
    ran = [o.target for o in outcomes]
    assert ran == [t for t in runner.TARGETS if checker.supports_target(t)]
    assert all(o.expected > 0 for o in outcomes)
    assert runner.differences(name, outcomes) == []


def test_pyright_matches_the_markers_exactly() -> None:
    _, recorded = runner.load_record("pyright")
    assert recorded == []


def test_records_explain_every_deviation() -> None:
    for path in runner.RESULTS.glob("*.toml"):
        _, recorded = runner.load_record(path.stem)
        assert all(r.reason and r.reason != runner.UNEXPLAINED for r in recorded), path


def test_without_the_overlay_pyright_misses_every_marked_line() -> None:
    """The cases test our stubs: stock typeshed lets every `# E` line through."""
    checker = _checker("pyright")
    for outcome in runner.run_checker(checker, ["3.8", "3.14"], stock=True):
        assert outcome.expected > 0
        assert outcome.matched == 0, runner.summary(outcome)
        assert {d.kind for d in outcome.deviations} == {runner.MISSING}


def test_mypy_reads_the_overlay(tmp_path: Path) -> None:
    """mypy's silence proves nothing, so show it parses our modules instead of its own."""
    checker = _checker("mypy")
    overlay = build_overlay(checker.typeshed_dir(), tmp_path / "overlay")
    files = [str(runner.CASES / name) for name in SINK_FILES if "strict" not in name]
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file=", "-v", "--no-incremental", *files],
        env={"MYPYPATH": str(overlay.root), "PATH": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    for module in ("sqlite3/__init__.pyi", "subprocess.pyi", "logging/__init__.pyi"):
        assert f"Parsing {overlay.root / module}" in proc.stderr, module
    # And it applies them: a bytes command with shell=True is refused only by our stub.
    _, recorded = runner.load_record("mypy")
    line = _line_of("check_subprocess.py", 'subprocess.run(b"ls", shell=True)')
    assert ("check_subprocess.py", line) not in {(r.file, r.line) for r in recorded}
    stock = runner.run_checker(checker, ["3.12"], stock=True)[0]
    assert ("check_subprocess.py", line) in {(d.file, d.line) for d in stock.deviations}


def _line_of(file: str, code: str) -> int:
    lines: list[str] = (runner.CASES / file).read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.strip().startswith(code))


def test_markers_are_read_from_comments_only(tmp_path: Path) -> None:
    case = tmp_path / "check_x.py"
    case.write_text(
        'a = "# E"\n'
        "b = 1  # E\n"
        "c = 2  # E?: either way\n"
        "d = 3  # Example, not a marker\n"
        "e = 4  #E\n"
    )
    markers = runner.read_markers(case)
    assert markers.required == {2, 5}
    assert markers.optional == {3}


def test_a_changed_outcome_is_reported_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "RESULTS", tmp_path)
    (tmp_path / "fake.toml").write_text(
        'checker = "fake"\nversion = "1"\n\n[[deviation]]\nfile = "check_a.py"\nline = 3\n'
        'kind = "missing"\ntargets = ["3.12", "3.13"]\nsource = "x"\nreason = "r"\n'
    )
    regressed = runner.Outcome(
        "fake", "3.12", 2, 1, [runner.Deviation("check_a.py", 3, "missing", "x")]
    )
    improved = runner.Outcome("fake", "3.13", 2, 2, [])
    worse = runner.Outcome(
        "fake",
        "3.12",
        2,
        0,
        [
            runner.Deviation("check_a.py", 3, "missing", "x"),
            runner.Deviation("check_a.py", 9, "unexpected", "y", "boom"),
        ],
    )
    assert runner.differences("fake", [regressed]) == []
    assert runner.differences("fake", [regressed, improved]) == [
        "no longer deviates: fake check_a.py:3 missing (on 3.13)"
    ]
    assert runner.differences("fake", [worse]) == [
        "new deviation: fake check_a.py:9 unexpected (on 3.12)"
    ]
