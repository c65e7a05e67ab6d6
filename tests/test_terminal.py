"""Issue 29 (4): what `check` shows at a terminal: colour (NO_COLOR, FORCE_COLOR), --quiet,
progress with counts on stderr, and findings said in a line of what and a line of fix."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS
from typing_literalstring.commands.cli import main
from typing_literalstring.report import terminal

APP = """\
import sqlite3
import subprocess


def f(conn: sqlite3.Connection, table: str, ids: str, name: str) -> None:
    conn.execute(f"SELECT * FROM {table} WHERE id IN ({ids})")
    subprocess.run(f"ls {name}", shell=True)
"""
_ESCAPE = "\x1b["


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _check(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *options: str,
) -> tuple[int, str, str]:
    """`check` in text on a project of APP, run from it: status, stdout, stderr."""
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    project = tmp_path / "p"
    project.mkdir(parents=True, exist_ok=True)
    (project / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n')
    (project / "app.py").write_text(APP)
    monkeypatch.chdir(project)
    status = main(["check", "--cache-dir", str(cache_dir), *options])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    ("environ", "tty", "wanted"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"NO_COLOR": ""}, True, True),  # set but empty: no-color.org says it does not count
        ({"FORCE_COLOR": "1"}, False, True),
        ({"FORCE_COLOR": "0"}, False, True),  # force-color.org: any value that is not empty
        ({"FORCE_COLOR": ""}, False, False),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
        ({"TERM": "dumb"}, True, False),
    ],
)
def test_colour_follows_no_color_force_color_and_the_terminal(
    environ: dict[str, str], tty: bool, wanted: bool
) -> None:
    stream = _Terminal() if tty else io.StringIO()
    assert terminal.colour_wanted(stream, environ) is wanted


def test_colour_marks_places_codes_fixes_warnings_and_the_summary() -> None:
    text = (
        "a.py:1:2: LS101 sql-injection: non-literal SQL text (x)\n"
        "    run(f'\\u001b[31m{x}')\n"
        "    fix: Keep it literal.\n"
        "warning: 1 imported module could not be resolved\n"
        "1 finding (SQL 1) with pyright 1.1.414, profile default.\n"
        "2 other errors of pyright, not about literal strings, not shown.\n"
    )
    lines = terminal.coloured(text).split("\n")
    assert lines[0].startswith("\x1b[1ma.py:1:2:\x1b[0m \x1b[1m\x1b[31mLS101\x1b[0m")
    assert lines[1] == "    run(f'\\u001b[31m{x}')"  # the code is shown as it is
    assert lines[2] == "    \x1b[32mfix:\x1b[0m Keep it literal."
    assert lines[3].startswith("\x1b[1m\x1b[33mwarning\x1b[0m:")
    assert lines[4] == "\x1b[1m1 finding (SQL 1) with pyright 1.1.414, profile default.\x1b[0m"
    assert _ESCAPE not in lines[5]


def test_the_report_is_coloured_when_forced_and_plain_otherwise(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    status, out, _ = _check(tmp_path, cache_dir, capsys, monkeypatch)
    assert status == EXIT_FINDINGS
    assert f"{_ESCAPE}1m{_ESCAPE}31mLS101{_ESCAPE}0m" in out
    monkeypatch.setenv("NO_COLOR", "1")
    status, out, _ = _check(tmp_path / "again", cache_dir, capsys, monkeypatch)
    assert _ESCAPE not in out
    assert "LS101 sql-injection" in out


def test_quiet_prints_only_the_summary(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    status, out, err = _check(tmp_path, cache_dir, capsys, monkeypatch, "--quiet")
    assert status == EXIT_FINDINGS
    assert re.fullmatch(
        r"2 findings \(SQL 1, shell 1\) with pyright [\d.]+, profile default\.\n", out
    )
    assert err == ""


def test_quiet_still_says_which_files_were_not_checked(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "broken.py").write_text("def (:\n")
    status, out, _ = _check(tmp_path, cache_dir, capsys, monkeypatch, "--quiet")
    assert status == EXIT_ERROR
    first, summary = out.splitlines()
    assert first.startswith("error: broken.py:1: not checked: it does not parse")
    assert summary.startswith("2 findings (SQL 1, shell 1)")


def test_a_finding_is_a_line_of_what_and_a_line_of_fix_without_catalogues(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    _, out, _ = _check(tmp_path, cache_dir, capsys, monkeypatch)
    lines = out.splitlines()
    sql = next(n for n, line in enumerate(lines) if " LS101 " in line)
    what, source, evidence, fix = lines[sql : sql + 4]
    # The rule's page lists the drivers; each finding said them all (~300 characters).
    assert "psycopg2.sql.SQL" not in out
    assert "Django raw" not in out
    assert what == (
        "app.py:6:5: LS101 sql-injection: non-literal SQL text "
        "(conn.execute: sqlite3 Connection/Cursor.execute)"
    )
    assert source.strip().startswith("conn.execute(")
    # What the checker answered about the text, in our words: short, then the fix.
    assert evidence.startswith("    evidence: ")
    assert "is str, not a literal string" in evidence
    assert fix.startswith("    fix: ")
    assert fix.endswith("See `typing-literalstring rule LS101`.")
    assert len(fix) < 260
    shell = next(n for n, line in enumerate(lines) if " LS201 " in line)
    shell_fix = lines[shell + 3]
    # The shell fix said "if you need a shell" and then "If a shell is needed".
    assert shell_fix.lower().count("shell is needed") + shell_fix.count("need a shell") <= 1
    assert shell_fix.startswith("    fix: Pass a list and no shell=True")


def test_progress_shows_counts_and_time_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terminal, "_PATIENCE", 0.05)
    stream = _Terminal()
    progress = terminal.Progress(stream, live=True, verbose=False)
    progress("reading 4 files")
    progress.count(3, 4, "read")
    redrawn = re.compile(r"\r\x1b\[Ktyping-literalstring: reading 4 files \(read 3/4\)\.\.\. \d+ s")
    waited = 0.0
    while not redrawn.search(stream.getvalue()) and waited < 10:  # the ticker redraws it
        time.sleep(0.05)
        waited += 0.05
    progress("running pyright on 4 files")
    progress.close()
    said = stream.getvalue()
    assert redrawn.search(said), said
    assert said.endswith("running pyright on 4 files...\n")


def test_verbose_progress_outside_a_terminal_says_each_step_and_its_counts(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, _, err = _check(tmp_path, cache_dir, capsys, monkeypatch, "--verbose")
    assert "typing-literalstring: running pyright on 1 file...\n" in err
    assert re.search(r"running pyright on 1 file \(read 1/1\): [\d.]+ s\n", err)
    # The third-party step is most of a first check: it counts the packages too.
    assert re.search(r"checked environment \((\d+)/\1 packages\): [\d.]+ s\n", err), err
    assert _ESCAPE not in err
