"""The benchmark script works end to end on three corpus cases (the full run is not a test)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from scripts import benchmark
from typing_literalstring.checkers import CHECKERS


def test_corpus_cases_are_labelled() -> None:
    cases = benchmark.load_cases()
    for family in benchmark.FAMILIES:
        labels = [c.label for c in cases if c.family == family]
        assert labels.count("vulnerable") >= 20
        assert labels.count("safe") >= 20
    for case in cases:
        sink = case.path.read_text().splitlines()[case.sink_line - 1]
        assert "(" in sink, f"{case.name}: the sink line holds no call"


def test_scores_count_each_case_once() -> None:
    cases = {f"/c/{n}": c for n, c in enumerate(benchmark.load_cases()[:6])}
    run = benchmark.ToolRun("t", "1", 0.0)
    for copy, case in cases.items():
        run.flagged[copy] = {case.family}  # flags everything
    for family in benchmark.FAMILIES:
        s = benchmark.score(run, cases, family)
        assert s.fn == s.tn == 0
        assert s.tp + s.fp == sum(1 for c in cases.values() if c.family == family)


def test_detection_on_three_cases(tmp_path: Path) -> None:
    tools = [
        t for t in ("pyright", "ruff", "bandit") if t != "pyright" or CHECKERS[t].is_installed()
    ]
    if not (Path(sys.executable).parent / "bandit").is_file():
        pytest.skip("bandit is not installed")
    out = tmp_path / "BENCHMARKS.md"
    assert (
        benchmark.main(["--detection", "--cases", "1", "--tools", *tools, "--out", str(out)]) == 0
    )
    text = out.read_text()
    rows = [
        line
        for line in text.splitlines()
        if re.match(r"\| (typing-literalstring|ruff|bandit)", line)
    ]
    per_tool_family = [r for r in rows if r.count("|") == 11]
    assert len(per_tool_family) == 3 * len(tools)
    for row in per_tool_family:
        tp, fn, tn, fp = (int(cell) for cell in row.split("|")[4:8])
        assert tp + fn + tn + fp == 1  # one case of each family
    assert "Corpus: `benchmarks/corpus/` (sql 1 vulnerable / 0 safe" in text
