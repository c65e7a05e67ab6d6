"""scripts/handlers_split.py: BENCHMARKS.md's split of the untyped handlers suite under mypy
against pyright (issue 45), written between its markers whatever is around them."""

from __future__ import annotations

from pathlib import Path

from scripts import benchmark
from scripts.handlers_split import BEGIN, END, render, write


def test_the_section_is_replaced_between_its_markers_and_kept_by_a_full_regeneration(
    tmp_path: Path,
) -> None:
    out = tmp_path / "BENCHMARKS.md"
    out.write_text("# Benchmarks\n\n## Cost\n\ntext\n", encoding="utf-8")
    write(out, render({"pyright": (11, 22, 2), "mypy": (10, 22, 3)}))
    write(out, render({"pyright": (11, 22, 2), "mypy": (11, 22, 2)}))
    text = out.read_text(encoding="utf-8")
    assert text.count(BEGIN) == text.count(END) == 1
    assert text.startswith("# Benchmarks\n\n## Cost\n\ntext\n\n" + BEGIN)
    assert "| mypy | 35 | 11 | 22 | 2 |" in text
    assert "0% of the calls: met." in text
    assert benchmark.kept_sections(text).strip().startswith(BEGIN)


def test_a_gap_above_five_percent_of_the_calls_is_not_met() -> None:
    lines = render({"pyright": (11, 22, 2), "mypy": (9, 22, 4)})
    assert lines[-2] == "Largest difference in a share: 6% of the calls: not met."
