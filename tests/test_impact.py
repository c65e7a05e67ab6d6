"""scripts/impact.py: labels keyed by place, per-API counts, the recommendation, the prose's
figures, build failures; and end to end on one tiny project (the real run downloads dozens of
sdists)."""

from __future__ import annotations

import io
import tarfile
from collections import Counter
from pathlib import Path

import pytest

from scripts import impact, impact_report
from scripts.impact_labels import Labels, load_labels
from scripts.impact_model import Call, Found, Project, ProjectResult, Run
from typing_literalstring.checkers import CHECKERS

EXECUTE = "sqlite3 Connection/Cursor.execute"
INFO = "logging info (Logger, LoggerAdapter or module)"
LABEL = """
[[label]]
project = "app"
file = "app/db.py"
number = 7
rule = "LS101"
line = "conn.execute(sql)"
verdict = "real"
harm = "injection"
why = "sql is the request's query string."
"""
RULE = """
[[rule]]
id = "no-arguments"
rules = ["LS302"]
except_projects = ["beets"]
verdict = "benign"
idiom = "log message formatted before the call (strict profile)"
why = "No arguments follow."
sampled = ["app app/log.py:3"]
"""
PROJECT = Project("app", "1.0", ("app",), "web app", "SQL")


def _labels(tmp_path: Path, label: str = LABEL, rule: str = RULE) -> Labels:
    (tmp_path / "labels").mkdir(exist_ok=True)
    (tmp_path / "labels" / "app.toml").write_text(label, encoding="utf-8")
    (tmp_path / "rules.toml").write_text(rule, encoding="utf-8")
    return load_labels(tmp_path)


def _found(number: int, rule: str = "LS101", line: str = "conn.execute(sql)") -> Found:
    api = EXECUTE if rule == "LS101" else INFO
    file = "app/db.py" if rule == "LS101" else "app/log.py"
    return Found("app", file, rule, line, number, api)


def _result(findings: list[Found], mypy_findings: list[Found] | None = None) -> ProjectResult:
    proven = [Call("app/db.py", n, EXECUTE, "LS101", "proven") for n in range(20, 39)]
    unverified = [Call("app/db.py", 50, EXECUTE, "", "unverified:value-any")]
    runs = [
        Run("pyright", 3.0, findings, 0, 21, 19, proven, unverified),
        Run(
            "mypy",
            2.0,
            findings if mypy_findings is None else mypy_findings,
            1,
            21,
            19,
            proven,
            unverified,
        ),
    ]
    logging = [Call("app/log.py", n, INFO, "LS302", "site") for n in range(1, 5)]
    return ProjectResult(PROJECT, lines=2000, files=3, runs=runs, logging=logging)


def test_a_label_names_its_place_not_only_its_text(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    assert labels.of(_found(7)) is not None
    # The same statement text at another line is unlabelled until it is read.
    assert labels.of(_found(9)) is None
    # A rule labels what it matches, and says it did.
    label = labels.of(_found(3, "LS302", 'log.info(f"x {y}")'))
    assert label is not None
    assert label.rule == "no-arguments"
    assert labels.of(Found("beets", "b.py", "LS302", "log.info(x)", 1, INFO)) is None


def test_a_real_label_says_what_happens(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="harm"):
        _labels(tmp_path, LABEL.replace('harm = "injection"\n', ""))


def test_each_place_counts_once_per_checker_and_split_by_verdict(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    result = _result([_found(7), _found(9), _found(3, "LS302", 'log.info(f"x {y}")')])
    (row,) = [e for e in impact_report.rows([result], labels, "pyright") if e.rule == "LS101"]
    assert (row.sites, row.proven, row.unverified, row.findings) == (22, 19, 1, 2)
    assert row.verdicts == Counter({"real": 1, "unlabelled": 1})
    (logged,) = [e for e in impact_report.rows([result], labels, "pyright") if e.rule == "LS302"]
    assert (logged.sites, logged.findings, logged.logging) == (4, 1, True)


def test_the_recommendation_follows_the_figures(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    result = _result([_found(7)])
    (sql,) = [v for v in impact_report.verdicts([result], labels) if v.rule == "LS101"]
    assert (sql.sites, sql.cost) == (21, 0)
    assert sql.recommendation() == "tighten now"
    # Four calls only: too few to say.
    (log,) = [v for v in impact_report.verdicts([result], labels) if v.rule == "LS302"]
    assert log.recommendation().startswith("not yet: 4 calls measured")
    # An unlabelled finding leaves the API undecided.
    result = _result([_found(7), _found(9)])
    (sql,) = [v for v in impact_report.verdicts([result], labels) if v.rule == "LS101"]
    assert sql.recommendation() == "undecided: unlabelled findings"


def test_the_prose_names_its_figures_and_never_writes_them(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    values = impact_report.figures([_result([_found(7), _found(9)])], labels)
    assert impact_report.fill("{{all_real}} real ({{all_real_pct}})", values) == "1 real (50%)"
    with pytest.raises(SystemExit, match="unknown figure"):
        impact_report.fill("{{nonsense}}", values)
    assert impact_report.written_figures("94% harmless, {{all_benign_pct}} benign") == ["94%"]
    # The notes shipped with the report write no percentage by hand.
    assert impact_report.written_figures(impact_report.NOTES.read_text(encoding="utf-8")) == []
    impact_report.fill(impact_report.NOTES.read_text(encoding="utf-8"), values)


def test_a_project_that_did_not_build_is_listed_with_its_reason(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    failed = ProjectResult(Project("broken", "2.0", ("broken",), "CLI", "x"),
                           failure="pip install failed: no compiler")  # fmt: skip
    report = impact_report.render_impact([_result([_found(7)]), failed], labels, 1.0)
    assert "| broken==2.0 | CLI | x | - | **not built**: pip install failed: no compiler |" in (
        report
    )
    assert "2 projects, 1 built and checked" in report
    assert "1 not built and 0 not run" in report


def test_one_name_per_sink_api() -> None:
    assert impact_report.api_of(EXECUTE + ", through query") == EXECUTE
    assert impact_report.api_of("logging.Logger.debug") == impact_report.LOGGING_API
    assert impact_report.api_of(INFO + ", formatting arguments passed as *args") == (
        impact_report.LOGGING_API
    )
    assert impact_report.api_of("SQLAlchemy text") == "sqlalchemy.text"
    assert impact_report.api_of("execute, named like an SQL sink") == (
        "the project's own execute (named like an SQL sink)"
    )


def test_results_survive_the_cache(tmp_path: Path) -> None:
    result = _result([_found(7)])
    again = ProjectResult.from_json(PROJECT, result.to_json())
    assert again == result


def test_the_project_list_is_data() -> None:
    projects = impact.load_projects()
    assert len(projects) >= 30
    assert len({p.name for p in projects}) == len(projects)
    assert all(p.version and p.packages and p.why for p in projects)


def _sdist(cache: Path) -> None:
    app = b"""\
import logging
import sqlite3

log = logging.getLogger(__name__)


def find(conn: sqlite3.Connection, name: str) -> None:
    conn.execute(f"SELECT * FROM t WHERE name = '{name}'")
    conn.execute("SELECT 1")
    log.info(f"looked for {name}")
"""
    (cache / "sdists").mkdir(parents=True)
    with tarfile.open(cache / "sdists" / "tinyproj-0.1.tar.gz", "w:gz") as archive:
        for name, data in (
            ("tinyproj-0.1/tiny/app.py", app),
            ("tinyproj-0.1/tiny/__init__.py", b""),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


def test_end_to_end_on_a_tiny_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("pyright", "mypy+plugin"):
        if not CHECKERS[name].is_installed():
            pytest.skip(f"{name} is not installed")
    _sdist(tmp_path / "cache")
    tiny = Project("tinyproj", "0.1", ("tiny",), "test", "a test", installed=False)
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "tiny.toml").write_text(
        '[[label]]\nproject = "tinyproj"\nfile = "tiny/app.py"\nnumber = 8\nrule = "LS101"\n'
        'line = "conn.execute(f\\"SELECT * FROM t WHERE name = \'{name}\'\\")"\n'
        'verdict = "real"\nharm = "injection"\nwhy = "name comes from the caller."\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(impact, "load_projects", lambda: [tiny])
    monkeypatch.setattr(impact, "load_labels", lambda: load_labels(tmp_path))
    out, typeshed = tmp_path / "IMPACT.md", tmp_path / "typeshed.md"
    args = ["--cache", str(tmp_path / "cache"), "--out", str(out), "--typeshed", str(typeshed)]
    # LS302 at the log call (strict) has no label: the run fails and lists it.
    assert impact.main(args) == 1
    report = out.read_text(encoding="utf-8")
    assert "| tinyproj==0.1 | test | a test | 0.0 | 1 / 2 | 1 / 2 | 2: 1, 0 |" in report
    assert "**unlabelled**" in report
    # Re-rendered from the cache, with the rule: complete.
    (tmp_path / "rules.toml").write_text(RULE, encoding="utf-8")
    assert impact.main([*args, "--reuse"]) == 0
    report = out.read_text(encoding="utf-8")
    assert "1 real (50%; 1 injections, 0 lost log records), 1 benign (50%)" in report
    assert "| sqlite3 Connection/Cursor.execute | LS101 | 2 | 1 | 1 | 1 | 0 | 0 | 0 |" in report
