"""Issue 29 (3): which rules and files `check` reports: --select/--ignore, the
[tool.typing-literalstring] table of pyproject.toml, and --no-baseline.

The checked projects are tiny and checked with pyright, the fastest checker."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.checking import write_project
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.core.config import ConfigError, Settings, read, selectors
from typing_literalstring.report.selection import Selection, matches

# One SQL finding (LS101, line 6) and one logging finding (LS301, line 7).
APP = """\
import logging
import sqlite3


def f(conn: sqlite3.Connection, table: str) -> None:
    conn.execute(f"SELECT * FROM {table}")
    logging.info(f"read {table} %s", 1)
"""
CHECKERS_ = ("pyright", "mypy", "basedpyright", "ty", "zuban", "pyrefly")
PROFILES = ("default", "strict")
_NOTHING: set[str] = set()


def _project(folder: Path, table: str = "", files: dict[str, str] | None = None) -> Path:
    """A project of ``files`` (default: app.py) whose pyproject.toml ends with ``table``."""
    return write_project(folder, table, files or {"app.py": APP})


def _check(
    folder: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *options: str,
) -> tuple[int, dict[str, Any]]:
    """`check --format json` run from ``folder``: its exit status and document."""
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    monkeypatch.chdir(folder)
    status = main(["check", "--format", "json", "--cache-dir", str(cache_dir), *options])
    out = capsys.readouterr().out
    return status, json.loads(out) if out else {}


def _rules(document: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["path"], f["rule"]) for f in document["findings"])


# --- the selection itself, without a checker ---------------------------------------------


@pytest.mark.parametrize(
    ("select", "ignore", "reported"),
    [
        (("LS",), (), {"LS101", "LS301", "LS901"}),
        (("LS1",), (), {"LS101"}),
        (("LS101", "LS3"), (), {"LS101", "LS301"}),
        (("LS",), ("LS9",), {"LS101", "LS301"}),
        # The more specific selector wins; at the same specificity the ignore does.
        (("LS101",), ("LS1",), {"LS101"}),
        (("LS1",), ("LS101",), _NOTHING),
        (("LS3",), ("LS3",), _NOTHING),
    ],
)
def test_a_rule_is_reported_by_its_most_specific_selector(
    select: tuple[str, ...], ignore: tuple[str, ...], reported: set[str]
) -> None:
    chosen = Selection(select=select, ignore=ignore)
    assert {r for r in ("LS101", "LS301", "LS901") if chosen.rule_selected(r)} == reported


@pytest.mark.parametrize(
    ("glob", "path", "matched"),
    [
        ("tests/*", "tests/test_a.py", True),
        ("tests/*", "tests/deep/test_a.py", True),
        ("tests", "tests/deep/test_a.py", True),
        ("tests/", "tests/test_a.py", True),
        ("test_*.py", "src/test_a.py", True),
        ("**/migrations/*.py", "migrations/0001.py", True),
        ("**/migrations/*.py", "app/migrations/0001.py", True),
        ("tests/*", "src/tests.py", False),
        ("src/a.py", "src/ab.py", False),
    ],
)
def test_globs_match_root_relative_paths_and_folders(glob: str, path: str, matched: bool) -> None:
    assert matches(glob, path) is matched


def test_selectors_take_commas_and_repeats_and_refuse_unknown_codes() -> None:
    assert selectors(["LS101,ls3", " LS9 "], "--select") == ("LS101", "LS3", "LS9")
    for bad in ("LS7", "LS1011", "SQL", "E501"):
        with pytest.raises(ConfigError, match=f"--select: unknown rule code {bad!r}"):
            selectors([bad], "--select")


def test_the_table_is_read_and_checked(tmp_path: Path) -> None:
    _project(
        tmp_path,
        '[tool.typing-literalstring]\nchecker = "mypy"\nprofile = "strict"\nselect = ["LS1"]\n'
        'ignore = ["LS101"]\nexclude = ["build"]\nbaseline = "ci/baseline.json"\n'
        '[tool.typing-literalstring.per-file-ignores]\n"tests/*" = ["LS3", "LS9"]\n',
    )
    assert read(tmp_path, CHECKERS_, PROFILES) == Settings(
        checker="mypy",
        profile="strict",
        select=("LS1",),
        ignore=("LS101",),
        per_file_ignores={"tests/*": ("LS3", "LS9")},
        exclude=("build",),
        baseline=tmp_path / "ci" / "baseline.json",
        source=tmp_path / "pyproject.toml",
    )


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ('selct = ["LS1"]', "unknown key 'selct' (did you mean 'select'?); the keys are checker"),
        ('select = ["LS7"]', "select: unknown rule code 'LS7'"),
        ('select = "LS1"', "select must be a list of rule codes"),
        ("select = []", "select names no rule"),
        ('checker = "pylint"', "checker is 'pylint'; it must be one of pyright"),
        ('profile = "loose"', "profile is 'loose'; it must be one of default, strict"),
        ('per-file-ignores = { "t/*" = ["LS99"] }', "per-file-ignores 't/*': unknown rule code"),
        ("baseline = 3", "baseline must be a path"),
    ],
)
def test_a_bad_key_or_value_is_named(tmp_path: Path, table: str, said: str) -> None:
    _project(tmp_path, f"[tool.typing-literalstring]\n{table}\n")
    with pytest.raises(ConfigError) as error:
        read(tmp_path, CHECKERS_, PROFILES)
    assert str(error.value).startswith("pyproject.toml: [tool.typing-literalstring] ")
    assert said in str(error.value)


def test_a_broken_pyproject_stops_the_run_only_when_it_holds_our_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project\nname = 1\n")
    assert read(tmp_path, CHECKERS_, PROFILES) == Settings(source=tmp_path / "pyproject.toml")
    (tmp_path / "pyproject.toml").write_text('[tool.typing-literalstring\nselect = ["LS1"]\n')
    with pytest.raises(ConfigError, match="is not valid TOML"):
        read(tmp_path, CHECKERS_, PROFILES)


@pytest.mark.parametrize("missing", [("tomllib",), ("tomllib", "tomli", "tomlkit")])
def test_below_python_3_11_the_table_is_read_by_what_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, missing: tuple[str, ...]
) -> None:
    """Python 3.8 to 3.10 have no tomllib: tomli or tomlkit read the table, and with neither
    a table of ours is an error rather than unread."""
    real = importlib.import_module

    def without(name: str) -> ModuleType:
        if name in missing:
            raise ImportError(name)
        return real(name)

    monkeypatch.setattr(importlib, "import_module", without)  # as config calls it
    _project(tmp_path, '[tool.typing-literalstring]\nselect = ["LS1"]\n')
    if "tomlkit" in missing:
        with pytest.raises(ConfigError, match="pip install tomli"):
            read(tmp_path, CHECKERS_, PROFILES)
    else:
        assert read(tmp_path, CHECKERS_, PROFILES).select == ("LS1",)


# --- through the command ------------------------------------------------------------------


def test_select_and_ignore_by_code_and_prefix_change_the_findings_and_the_exit_status(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(tmp_path / "p")
    status, document = _check(project, cache_dir, capsys, monkeypatch)
    assert (status, _rules(document)) == (EXIT_FINDINGS, [("app.py", "LS101"), ("app.py", "LS301")])
    status, document = _check(project, cache_dir, capsys, monkeypatch, "--select", "LS3")
    assert (status, _rules(document)) == (EXIT_FINDINGS, [("app.py", "LS301")])
    status, document = _check(
        project, cache_dir, capsys, monkeypatch, "--ignore", "LS101", "--ignore=LS3"
    )
    assert (status, _rules(document)) == (EXIT_OK, [])
    status, document = _check(
        project, cache_dir, capsys, monkeypatch, "--select", "LS1,LS3", "--ignore", "LS1"
    )
    assert (status, _rules(document)) == (EXIT_FINDINGS, [("app.py", "LS301")])


def test_an_unknown_code_on_the_command_line_exits_2_naming_it(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(tmp_path / "p")
    monkeypatch.chdir(project)
    assert main(["check", "--ignore", "LS101,LS105"]) == EXIT_ERROR
    error = capsys.readouterr().err
    assert "--ignore: unknown rule code 'LS105'; the rules are LS001, LS101" in error


def test_a_bad_key_in_the_table_exits_2_naming_it(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(tmp_path / "p", '[tool.typing-literalstring]\nselct = ["LS1"]\n')
    monkeypatch.chdir(project)
    assert main(["check"]) == EXIT_ERROR
    assert "[tool.typing-literalstring] unknown key 'selct'" in capsys.readouterr().err


def test_the_table_selects_and_the_command_line_overrides_it(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(
        tmp_path / "p", '[tool.typing-literalstring]\nselect = ["LS3"]\nprofile = "strict"\n'
    )
    status, document = _check(project, cache_dir, capsys, monkeypatch)
    assert (status, _rules(document), document["profile"]) == (
        EXIT_FINDINGS,
        [("app.py", "LS301")],
        "strict",
    )
    status, document = _check(
        project, cache_dir, capsys, monkeypatch, "--select=LS1", "--profile=default"
    )
    assert (status, _rules(document), document["profile"]) == (
        EXIT_FINDINGS,
        [("app.py", "LS101")],
        "default",
    )


def test_per_file_ignores_and_exclude(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(
        tmp_path / "p",
        '[tool.typing-literalstring]\nexclude = ["build", "gen_*.py"]\n\n'
        '[tool.typing-literalstring.per-file-ignores]\n"tests/*" = ["LS1"]\n',
        {
            "app.py": APP,
            "tests/test_app.py": APP,
            "build/lib/app.py": APP,
            "gen_schema.py": APP,
        },
    )
    status, document = _check(project, cache_dir, capsys, monkeypatch)
    assert status == EXIT_FINDINGS
    assert _rules(document) == [
        ("app.py", "LS101"),
        ("app.py", "LS301"),
        ("tests/test_app.py", "LS301"),
    ]
    assert document["files"] == 2  # build/ and gen_schema.py were not checked at all


def test_a_project_whose_every_file_is_excluded_checks_nothing_and_passes(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(tmp_path / "p", '[tool.typing-literalstring]\nexclude = ["*.py"]\n')
    status, document = _check(project, cache_dir, capsys, monkeypatch)
    assert (status, document["files"], document["findings"]) == (EXIT_OK, 0, [])


def test_no_baseline_ignores_the_baseline_even_the_tables(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(tmp_path / "p", '[tool.typing-literalstring]\nbaseline = "ci/b.json"\n')
    status, _ = _check(project, cache_dir, capsys, monkeypatch, "--write-baseline")
    assert status == EXIT_OK
    assert (project / "ci" / "b.json").is_file()
    status, document = _check(project, cache_dir, capsys, monkeypatch)
    assert (status, document["findings"], len(document["baseline"]["findings"])) == (
        EXIT_OK,
        [],
        2,
    )
    status, document = _check(project, cache_dir, capsys, monkeypatch, "--no-baseline")
    assert (status, len(document["findings"]), document["baseline"]) == (EXIT_FINDINGS, 2, None)


def test_a_rule_not_selected_keeps_its_baseline_entries(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Deselecting a rule must not make its baseline entries stale, nor drop them when the
    baseline is written again."""
    project = _project(tmp_path / "p")
    assert _check(project, cache_dir, capsys, monkeypatch, "--write-baseline")[0] == EXIT_OK
    status, document = _check(project, cache_dir, capsys, monkeypatch, "--select", "LS1")
    assert (status, document["baseline"]["stale_entries"]) == (EXIT_OK, 0)
    assert (
        _check(project, cache_dir, capsys, monkeypatch, "--select", "LS1", "--write-baseline")[0]
        == 0
    )
    written = json.loads((project / ".typing-literalstring" / "baseline.json").read_text())
    assert sorted(e["rule"] for e in written["findings"]) == ["LS101", "LS301"]


def test_a_missing_baseline_named_by_the_table_stops_the_run_before_the_checker(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    checker_processes: list[list[str]],
) -> None:
    project = _project(tmp_path / "p", '[tool.typing-literalstring]\nbaseline = "ci/b.json"\n')
    monkeypatch.chdir(project)
    assert main(["check"]) == EXIT_ERROR
    assert "no baseline at " in capsys.readouterr().err
    assert checker_processes == []
    assert main(["check", "--no-baseline", "--write-baseline"]) == EXIT_ERROR
    assert "--no-baseline ignores the baseline" in capsys.readouterr().err
