"""scripts/impact.py end to end on one tiny project (the real run downloads eight sdists)."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from scripts import impact
from typing_literalstring.checkers import CHECKERS

APP = b"""\
import logging
import sqlite3

log = logging.getLogger(__name__)


def find(conn: sqlite3.Connection, name: str) -> None:
    conn.execute(f"SELECT * FROM t WHERE name = '{name}'")
    log.info(f"looked for {name}")
"""
TINY = impact.Project("tinyproj==0.1", (), ("tiny",), "test")
LABEL = r"""
[[label]]
project = "tinyproj"
file = "tiny/app.py"
rule = "LS101"
line = "conn.execute(f\"SELECT * FROM t WHERE name = '{name}'\")"
verdict = "real"
why = "name comes from the caller."
"""
MESSAGE_LABEL = """
[[label]]
project = "tinyproj"
file = "tiny/app.py"
rule = "LS302"
line = 'log.info(f"looked for {name}")'
verdict = "benign"
idiom = "pre-formatted message"
why = "No arguments follow it."
"""


def _sdist(cache: Path) -> None:
    (cache / "sdists").mkdir(parents=True)
    with tarfile.open(cache / "sdists" / "tinyproj-0.1.tar.gz", "w:gz") as archive:
        for name, data in (
            ("tinyproj-0.1/tiny/app.py", APP),
            ("tinyproj-0.1/tiny/__init__.py", b""),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


def test_the_report_counts_labels_and_fails_on_an_unclassified_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("pyright", "mypy+plugin"):
        if not CHECKERS[name].is_installed():
            pytest.skip(f"{name} is not installed")
    _sdist(tmp_path / "cache")
    labels = tmp_path / "labels"
    labels.mkdir()
    (labels / "tinyproj.toml").write_text(LABEL, encoding="utf-8")
    monkeypatch.setattr(impact, "PROJECTS", (TINY,))
    monkeypatch.setattr(impact, "LABELS", labels)
    monkeypatch.setattr(impact, "NOTES", tmp_path / "notes.md")
    monkeypatch.setattr(impact, "FIXES", tmp_path / "fixes")
    out = tmp_path / "IMPACT.md"
    args = ["--cache", str(tmp_path / "cache"), "--out", str(out)]
    # The strict profile adds LS302 at the log call, which has no label: unclassified.
    assert impact.main(args) == 1
    report = out.read_text(encoding="utf-8")
    assert "| tinyproj==0.1 | test | 0.0 | pyright default | LS101 1 |" in report
    assert "| tinyproj==0.1 | test | 0.0 | mypy strict | LS101 1, LS302 1 |" in report
    assert "2 distinct findings" in report
    assert "1 unclassified" in report
    assert "**unclassified**" in report
    # Labelled, the report is complete and the run passes.
    (labels / "tinyproj.toml").write_text(LABEL + MESSAGE_LABEL, encoding="utf-8")
    assert impact.main(args) == 0
    report = out.read_text(encoding="utf-8")
    assert "1 real (50%), 1 benign (50%), 0 mistake (0%)" in report
    assert "| pre-formatted message | 1 |" in report
