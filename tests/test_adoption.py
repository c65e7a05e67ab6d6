"""Adopting `check` on an existing codebase: the baseline, suppression comments, SARIF
fingerprints, and how the checkers' own ignore comments hide findings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.checkers import CHECKERS, COMMAND_CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from typing_literalstring.commands.cli import main

APP = """\
import sqlite3
import subprocess


def report(conn: sqlite3.Connection, table: str, user: str) -> None:
    conn.execute(f"SELECT * FROM t WHERE name = '{user}'")
    subprocess.run(f"ls {user}", shell=True)
"""


def _checker(name: str) -> None:
    if not CHECKERS[name].is_installed():
        pytest.skip(f"{name} is not installed")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _checker("pyright")
    root = tmp_path / "proj"
    (root / "app").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "app"\n')
    (root / "app" / "db.py").write_text(APP)
    monkeypatch.chdir(root)
    monkeypatch.setenv("TYPING_LITERALSTRING_CACHE", str(tmp_path / "cache"))
    return root


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    status = main(["check", "--format", "json", *args])
    captured = capsys.readouterr()
    return status, json.loads(captured.out) if captured.out else {}, captured.err


def _lines(findings: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(f["line"], f["rule"]) for f in findings]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_baseline_fails_only_on_new_findings(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, document, err = _check(capsys, "--write-baseline")
    assert status == EXIT_OK
    assert "wrote 2 findings to the baseline" in err
    written = json.loads((project / ".typing-literalstring" / "baseline.json").read_text())
    assert [(e["path"], e["rule"], e["sink"]) for e in written["findings"]] == [
        ("app/db.py", "LS101", "conn.execute"),
        ("app/db.py", "LS201", "subprocess.run"),
    ]
    assert list((project / ".typing-literalstring").iterdir()) == [
        project / ".typing-literalstring" / "baseline.json"
    ]  # no temporary file left

    # Used automatically; moving the code and reformatting the call keeps the match.
    db = project / "app" / "db.py"
    _edit(db, "def report(", "LIMIT = 10\n\n\ndef report(")
    _edit(
        db,
        "    conn.execute(f\"SELECT * FROM t WHERE name = '{user}'\")",
        "    conn.execute(\n        f\"SELECT * FROM t WHERE name = '{user}'\"  # why not\n    )",
    )
    status, document, _ = _check(capsys)
    assert status == EXIT_OK
    assert document["findings"] == []
    assert _lines(document["baseline"]["findings"]) == [(9, "LS101"), (12, "LS201")]
    assert document["baseline"]["stale_entries"] == 0

    # A new finding fails the run; a fixed one leaves a stale entry.
    _edit(db, '    subprocess.run(f"ls {user}", shell=True)', '    conn.execute("DROP " + table)')
    status, document, _ = _check(capsys)
    assert status == EXIT_FINDINGS
    assert _lines(document["findings"]) == [(12, "LS101")]
    assert document["baseline"]["stale_entries"] == 1
    status = main(["check"])
    assert "1 baseline entry no longer matches" in capsys.readouterr().out

    # Rewriting drops what is gone.
    _check(capsys, "--write-baseline")
    rewritten = json.loads((project / ".typing-literalstring" / "baseline.json").read_text())
    assert [e["sink"] for e in rewritten["findings"]] == ["conn.execute", "conn.execute"]


def test_writing_for_some_files_keeps_the_others_entries(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "app" / "other.py").write_text(APP)
    assert _check(capsys, "--write-baseline")[0] == EXIT_OK
    (project / "app" / "db.py").write_text(APP.replace("shell=True", "shell=False"))
    assert _check(capsys, "--write-baseline", "app/db.py")[0] == EXIT_OK
    written = json.loads((project / ".typing-literalstring" / "baseline.json").read_text())
    assert sorted((e["path"], e["rule"]) for e in written["findings"]) == [
        ("app/db.py", "LS101"),
        ("app/other.py", "LS101"),
        ("app/other.py", "LS201"),
    ]


# A baseline entry covers the flow, not only the sink's statement (issue 43 item 9): a
# baselined `conn.execute(query)` stayed accepted when the line that builds `query` turned into
# an injection.
FLOW = """\
import sqlite3


def report(conn: sqlite3.Connection, table: str, user: str) -> None:
    columns = "name, age"
    query = "SELECT " + columns + " FROM " + table
    conn.execute(query)
"""
BUILT = '    query = "SELECT " + columns + " FROM " + table\n'
INJECTED = '    query = "SELECT * FROM t WHERE name = \'" + user + "\'"\n'


def _new(capsys: pytest.CaptureFixture[str]) -> list[tuple[int, str]]:
    status, document, err = _check(capsys)
    assert status in (EXIT_OK, EXIT_FINDINGS), err
    return _lines(document["findings"])


def test_a_changed_line_that_builds_the_query_is_a_new_finding(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = project / "app" / "db.py"
    db.write_text(FLOW)
    assert _check(capsys, "--write-baseline")[0] == EXIT_OK

    # Moved: lines above it, and the function below another one.
    _edit(db, "def report(", "def other() -> None:\n    pass\n\n\ndef report(")
    _edit(db, "import sqlite3\n", "import sqlite3\n\nLIMIT = 10\n")
    assert _new(capsys) == []

    # The statement that builds the query turns into an injection.
    _edit(db, BUILT, INJECTED)
    assert _new(capsys) == [(13, "LS101")]

    # Back as it was, then a part the query is built from changes (transitively).
    _edit(db, INJECTED, BUILT)
    assert _new(capsys) == []
    _edit(db, '    columns = "name, age"\n', "    columns = user\n")
    assert _new(capsys) == [(13, "LS101")]

    # Or an augmented assignment adds to it.
    _edit(db, "    columns = user\n", '    columns = "name, age"\n')
    _edit(db, BUILT, BUILT + '    query += " WHERE name = \'" + user + "\'"\n')
    assert _new(capsys) == [(14, "LS101")]


def test_a_version_1_baseline_still_matches_by_the_statement(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Written before the flow counted: read as it was (the statement alone), with a note
    saying so; written again, it is a version 2 baseline."""
    db = project / "app" / "db.py"
    db.write_text(FLOW)
    assert _check(capsys, "--write-baseline")[0] == EXIT_OK
    path = project / ".typing-literalstring" / "baseline.json"
    document = json.loads(path.read_text())
    assert document["version"] == 2
    document["version"] = 1
    for entry in document["findings"]:
        statement, flow = entry["fingerprint"].split(":")
        assert (len(statement), len(flow)) == (20, 12)
        entry["fingerprint"] = statement
    path.write_text(json.dumps(document))

    _edit(db, BUILT, INJECTED)
    status, document, err = _check(capsys)
    assert status == EXIT_OK
    assert len(document["baseline"]["findings"]) == 1
    assert "1 entry of the baseline" in err
    assert "written before version 2 and matches a finding by its statement alone" in err
    assert "--write-baseline" in err

    assert _check(capsys, "--write-baseline")[0] == EXIT_OK
    rewritten = json.loads(path.read_text())
    assert rewritten["version"] == 2
    assert all(":" in e["fingerprint"] for e in rewritten["findings"])


def test_a_baseline_that_cannot_be_used_stops_the_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["check", "--baseline", "missing.json"])
    assert status == EXIT_ERROR
    assert "no baseline at missing.json: write one with" in capsys.readouterr().err
    (project / ".typing-literalstring").mkdir()
    (project / ".typing-literalstring" / "baseline.json").write_text("{not json")
    assert main(["check"]) == EXIT_ERROR
    assert "is not one this version wrote" in capsys.readouterr().err
    # A folder where the file should go: nothing written, nothing left behind.
    (project / "taken").mkdir()
    (project / "taken" / "baseline.json").mkdir()
    assert main(["check", "--write-baseline", "--baseline", "taken/baseline.json"]) == EXIT_ERROR
    assert "cannot write the baseline" in capsys.readouterr().err
    assert [p.name for p in (project / "taken").iterdir()] == ["baseline.json"]


SUPPRESSED = """\
import sqlite3
import subprocess


def report(conn: sqlite3.Connection, table: str, user: str) -> None:
    conn.execute(f"SELECT * FROM {table}")  # typing-literalstring: ignore[LS101] -- config
    conn.execute(
        f"DELETE FROM {table}"
    )  # typing-literalstring: ignore[LS101]
    conn.execute(f"SELECT '{user}'")
    subprocess.run(user, shell=True)  # typing-literalstring: ignore[LS101, LS301]
    note = "# typing-literalstring: ignore[LS201] in a string is not a comment"
    subprocess.run(note + user, shell=True)
    x = 1  # typing-literalstring: ignore
"""


def test_a_comment_suppresses_the_rules_it_names_in_its_statement(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "app" / "db.py").write_text(SUPPRESSED)
    status, document, _ = _check(capsys)
    assert status == EXIT_FINDINGS
    assert _lines(document["findings"]) == [(10, "LS101"), (11, "LS201"), (13, "LS201")]
    suppressed = {f["line"]: f["suppression"] for f in document["suppressed"]}
    assert suppressed == {
        6: {"line": 6, "rules": ["LS101"], "reason": "config"},
        7: {"line": 9, "rules": ["LS101"], "reason": ""},  # on the closing parenthesis
    }
    assert document["suppression_problems"] == [
        "app/db.py:14: this suppression names no rule, so it silences nothing: write "
        "'# typing-literalstring: ignore[LS101] reason' (got '# typing-literalstring: ignore')"
    ]


def test_unused_suppressions_are_reported_and_fail_the_run_when_asked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "app" / "db.py").write_text(
        APP.replace("'{user}'\")", "'{user}'\")  # typing-literalstring: ignore[LS101]")
        .replace("shell=True)", "shell=True)  # typing-literalstring: ignore[LS201]")
        .replace("-> None:", "-> None:  # typing-literalstring: ignore[LS301]")
    )
    status, document, _ = _check(capsys)
    assert status == EXIT_OK
    assert document["findings"] == []
    status, document, _ = _check(capsys, "--warn-unused-suppressions")
    assert status == EXIT_FINDINGS
    assert document["suppression_problems"] == [
        "app/db.py:5: unused suppression: no LS301 finding in this statement"
    ]
    status = main(["check", "--warn-unused-suppressions"])
    out = capsys.readouterr().out
    assert "warning: app/db.py:5: unused suppression" in out
    assert "0 findings with pyright" in out
    assert "2 suppressed by comments" in out


def test_sarif_results_carry_the_fingerprint_and_say_what_set_them_aside(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document, _ = _check(capsys)
    fingerprints = {f["line"]: f["fingerprint"] for f in document["findings"]}
    assert len(set(fingerprints.values())) == 2
    _check(capsys, "--write-baseline")
    _edit(
        project / "app" / "db.py",
        "    conn.execute(f",
        "    conn.execute(table)  # typing-literalstring: ignore[LS101] ok\n    conn.execute(f",
    )
    assert main(["check", "--format", "sarif"]) == EXIT_OK
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    by_line = {r["locations"][0]["physicalLocation"]["region"]["startLine"]: r for r in results}
    assert by_line[6]["suppressions"] == [{"kind": "inSource", "justification": "ok"}]
    for old, new in ((6, 7), (7, 8)):
        moved = by_line[new]
        assert moved["partialFingerprints"] == {"typingLiteralstring/v2": fingerprints[old]}
        assert moved["baselineState"] == "unchanged"
        assert moved["suppressions"][0]["kind"] == "external"


# What each checker's own ignore comments hide, measured with the versions pinned in
# pyproject.toml.  They hide the checker's error, never the call's verdict: where the comment
# also hides the checker's answer about the text (pyright's `# type: ignore`, mypy's bare
# one), the call is unverified; everywhere else the evidence makes it a finding.
IGNORES = """\
import sqlite3


def f(conn: sqlite3.Connection, sql: str) -> None:
    conn.execute(sql)
    conn.execute(sql)  # type: ignore
    conn.execute(sql)  # type: ignore[arg-type]
    conn.execute(sql)  # type: ignore[literal-string]
    conn.execute(sql)  # pyright: ignore[reportArgumentType]
    conn.execute(sql)  # pyright: ignore
    conn.execute(sql)  # ty: ignore[invalid-argument-type]
    conn.execute(sql)  # noqa
"""
# The lines whose answer the comment hides: unverified ("checker-ignore"), never proven.
ANSWER_HIDDEN = {
    # pyright honours `# type: ignore` whatever code it names (enableTypeIgnoreComments), and
    # a bare `# pyright: ignore`, for its reveals too.
    "pyright": [6, 7, 8, 10],
    "basedpyright": [6, 7, 8, 10],
    # mypy (with our plugin): only a bare ignore hides the plugin's note.
    "mypy": [6],
    "ty": [],
    # zuban: a bare ignore, and one naming arg-type.
    "zuban": [6, 7],
    "pyrefly": [],
}


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_the_checkers_own_ignore_comments_hide_findings(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _checker("mypy+plugin" if name == "mypy" else name)
    (tmp_path / "ignores.py").write_text(IGNORES)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TYPING_LITERALSTRING_CACHE", str(tmp_path / "cache"))
    _, document, _ = _check(capsys, "--checker", name, "--show-unverified", "ignores.py")
    hidden = ANSWER_HIDDEN[name]
    assert [f["line"] for f in document["findings"]] == [n for n in range(5, 13) if n not in hidden]
    assert [(u["line"], u["reason"]) for u in document["unverified"]] == [
        (n, "checker-ignore") for n in hidden
    ]
    assert document["sink_calls"]["proven"] == 0
