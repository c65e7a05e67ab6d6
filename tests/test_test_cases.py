"""test_cases/ under the real checkers: the markers hold, the record holds, and both can fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scripts.regression import markers, record, report
from scripts.regression.matrix import CASES, MISSING, TARGETS, Deviation, Outcome, run_checker
from typing_literalstring.checkers import CHECKERS, Checker
from typing_literalstring.specs.overlay import build_overlay

SINK_FILES = [
    "check_asyncio_subprocess.py",
    "check_logging.py",
    "check_os.py",
    "check_safe_helpers.py",
    "check_sqlite3.py",
    "check_subprocess.py",
]


def _checker(name: str) -> Checker:
    checker = CHECKERS[name]
    if not checker.is_installed():
        pytest.skip(f"{name} is not installed")
    return checker


@pytest.mark.parametrize("name", list(CHECKERS))
def test_checker_matches_its_record_on_every_target(name: str) -> None:
    checker = _checker(name)
    outcomes = run_checker(checker, TARGETS)
    assert [o.target for o in outcomes] == [t for t in TARGETS if checker.supports_target(t)]
    assert all(o.expected > 0 for o in outcomes)
    assert record.differences(name, outcomes) == []


@pytest.mark.parametrize("name", ["pyright", "basedpyright", "ty", "pyrefly"])
def test_enforcing_checkers_match_every_sink_marker(name: str) -> None:
    """Our stubs are exact for these checkers: no recorded deviation in a sink case file."""
    recorded = record.load_record(name)
    assert recorded is not None
    assert [d for d in recorded.deviations if d.file in SINK_FILES] == []


def test_records_explain_every_deviation() -> None:
    for path in record.RESULTS.glob("*.toml"):
        recorded = record.load_record(path.stem)
        assert recorded is not None
        assert recorded.deviations == () or all(
            d.reason and d.reason != record.UNEXPLAINED for d in recorded.deviations
        ), path


def test_report_is_regenerated_from_the_records() -> None:
    assert report.REPORT.read_text(encoding="utf-8") == report.render()


def test_without_the_overlay_pyright_misses_every_sink_marker() -> None:
    """The sink cases test our stubs: stock typeshed lets every `# E` line through."""
    checker = _checker("pyright")
    files = [CASES / name for name in SINK_FILES]
    for outcome in run_checker(checker, ["3.8", "3.14"], stock=True, files=files):
        assert outcome.expected > 0
        assert outcome.matched == 0, outcome.summary()
        assert {d.kind for d in outcome.deviations} == {MISSING}


def test_mypy_reads_the_overlay(tmp_path: Path) -> None:
    """mypy's silence proves nothing, so show it parses our modules instead of its own."""
    checker = _checker("mypy")
    overlay = build_overlay(checker.typeshed_dir(), tmp_path / "overlay")
    files = [str(CASES / name) for name in SINK_FILES]
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
    recorded = record.load_record("mypy")
    assert recorded is not None
    line = _line_of("check_subprocess.py", 'subprocess.run(b"ls", shell=True)')
    assert ("check_subprocess.py", line) not in {(r.file, r.line) for r in recorded.deviations}
    stock = run_checker(checker, ["3.12"], stock=True, files=[CASES / "check_subprocess.py"])[0]
    assert ("check_subprocess.py", line) in {(d.file, d.line) for d in stock.deviations}


def _line_of(file: str, code: str) -> int:
    lines: list[str] = (CASES / file).read_text().splitlines()
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
    found = markers.read_markers(case)
    assert found.required == {2, 5}
    assert found.optional == {3}


def test_file_names_choose_profile_and_targets() -> None:
    assert markers.profile_of(Path("check_logging_strict.py")) == "strict"
    assert markers.profile_of(Path("check_logging.py")) == "default"
    assert not markers.applies_to(Path("check_backport_typing_py311.py"), "3.10")
    assert markers.applies_to(Path("check_backport_typing_py311.py"), "3.11")
    assert markers.applies_to(Path("check_os.py"), "3.8")


def test_a_changed_outcome_is_reported_both_ways(tmp_path: Path) -> None:
    (tmp_path / "fake.toml").write_text(
        'checker = "fake"\nversion = "1"\ntargets = ["3.12", "3.13"]\n\n[[deviation]]\n'
        'file = "check_a.py"\nline = 3\nkind = "missing"\ntargets = ["3.12", "3.13"]\n'
        'source = "x"\nreason = "r"\n'
    )
    same = Outcome("fake", "3.12", 2, 1, [], [Deviation("check_a.py", 3, "missing", "x")])
    improved = Outcome("fake", "3.13", 2, 2, [], [])
    worse = Outcome(
        "fake",
        "3.12",
        2,
        0,
        [],
        [
            Deviation("check_a.py", 3, "missing", "x"),
            Deviation("check_a.py", 9, "unexpected", "y", "boom"),
        ],
    )
    untested = Outcome("fake", "3.14", 0, 0, [], [])
    assert record.differences("fake", [same], tmp_path) == []
    assert record.differences("fake", [same, improved], tmp_path) == [
        "no longer deviates: fake check_a.py:3 missing (on 3.13)"
    ]
    assert record.differences("fake", [worse], tmp_path) == [
        "new deviation: fake check_a.py:9 unexpected (on 3.12)"
    ]
    assert record.differences("fake", [untested], tmp_path) == [
        "not in the record: fake 3.14 (run with --update)"
    ]
    # --update keeps the reason of a deviation that stays, and what it knew of other targets.
    record.write_record("fake", "2", [worse], "new reason", tmp_path)
    rewritten = record.load_record("fake", tmp_path)
    assert rewritten is not None
    assert rewritten.targets == ("3.12", "3.13")
    assert [(d.line, d.targets, d.reason) for d in rewritten.deviations] == [
        (3, ("3.12", "3.13"), "r"),
        (9, ("3.12",), "new reason"),
    ]


@pytest.mark.parametrize("name", list(CHECKERS))
def test_backport_behaves_like_typing_and_typing_extensions(name: str) -> None:
    """The three backport files differ only in the import: each checker treats them alike."""
    recorded = record.load_record(name)
    if recorded is None:
        pytest.skip(f"no record for {name}")
    by_file = {
        file: sorted((d.line, d.kind) for d in recorded.deviations if d.file == file)
        for file in (
            "check_backport_typing_literalstring.py",
            "check_backport_typing_extensions.py",
            "check_backport_typing_py311.py",
        )
    }
    assert len(set(map(tuple, by_file.values()))) == 1, by_file
    texts = [(CASES / f).read_text().splitlines() for f in by_file]
    differing = [n for n, lines in enumerate(zip(*texts), 1) if len(set(lines)) > 1]
    assert len(differing) == 1  # the import line
