"""The benchmark script works end to end on three corpus cases (the full run is not a test)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from scripts import benchmark, false_alarm_fixes, plugin_real_code
from typing_literalstring.checkers import CHECKERS, Diagnostic
from typing_literalstring.checkers.run_values import Invocation


def test_corpus_cases_are_labelled() -> None:
    cases = benchmark.load_cases()
    for family in benchmark.FAMILIES:
        labels = [c.label for c in cases if c.family == family]
        # The stdlib families have grown past 20 each; each newer family starts at 15.
        least = 20 if family in ("sql", "shell", "logging") else 15
        assert labels.count("vulnerable") >= least, family
        assert labels.count("safe") >= least, family
    for case in cases:
        sink = case.path.read_text().splitlines()[case.sink_line - 1]
        assert "(" in sink, f"{case.name}: the sink line holds no call"


def test_scores_count_each_case_once() -> None:
    cases = {f"/c/{n}": c for n, c in enumerate(benchmark.load_cases()[:6])}
    run = benchmark.ToolRun("t", "1", 0.0)
    for copy, case in cases.items():  # every case flagged on its sink line
        run.flagged[copy] = {
            (benchmark.FINDING_FAMILY.get(case.family, case.family), case.sink_line)
        }
    for family in benchmark.FAMILIES:
        s = benchmark.score(run, cases, family)
        assert s.fn == s.tn == 0
        assert s.tp + s.fp == sum(1 for c in cases.values() if c.family == family)


def test_a_finding_away_from_the_sink_line_is_no_detection() -> None:
    """Each case names its sink line; a finding of its family elsewhere in the file (another
    call, a helper) is not a detection of that sink."""
    case = next(c for c in benchmark.load_cases() if c.label == "vulnerable")
    family = benchmark.FINDING_FAMILY.get(case.family, case.family)
    first, last = case.sink_span
    assert first <= case.sink_line <= last
    elsewhere = benchmark.ToolRun("t", "1", 0.0, {"/c": {(family, last + 1)}})
    on_it = benchmark.ToolRun("t", "1", 0.0, {"/c": {(family, first)}})
    assert not elsewhere.flags("/c", case)
    assert on_it.flags("/c", case)


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
    # Each checker has a second row set: the same checker with --report-any.
    runs = len(tools) + sum(t in CHECKERS for t in tools)
    assert len(per_tool_family) == len(benchmark.FAMILIES) * runs
    for row in per_tool_family:
        tp, fn, tn, fp = (int(cell) for cell in row.split("|")[4:8])
        assert tp + fn + tn + fp == 1  # one case of each family
    assert "Corpus: `benchmarks/corpus/` (sql 1 vulnerable / 0 safe" in text


def test_plugin_real_code_table_shows_what_changed_and_what_pyright_says(tmp_path: Path) -> None:
    """The table cannot hide a lost mypy error or a literal-string error pyright is silent on,
    and finds pyright's error anywhere in the call whose argument the plugin reports."""
    package = tmp_path / "sdists" / "src" / "proj-1.0" / "proj"
    package.mkdir(parents=True)
    source = (
        "import subprocess\n"
        "\n"
        "def f(cmd: str) -> int:\n"
        "    return cmd\n"
        "\n"
        "def g(cmd: str, conn: object) -> None:\n"
        "    subprocess.run(\n"
        "        cmd,\n"
        "        shell=True,\n"
        "    )\n"
        "\n"
        "    conn.execute(cmd)\n"
    )
    (package / "db.py").write_text(source, encoding="utf-8")
    path = str(package / "db.py")

    def diagnostic(line: int, column: int, message: str, code: str) -> Diagnostic:
        return Diagnostic(path, line, column, "error", message, code)

    mypys = diagnostic(4, 12, "Incompatible return value type", "return-value")
    overload = diagnostic(7, 5, 'No overload variant of "run" matches', "call-overload")
    ours = [
        diagnostic(8, 9, 'Argument 1 to "run" has incompatible type "str"', "literal-string"),
        diagnostic(12, 18, 'Argument 1 to "execute" has incompatible type', "literal-string"),
    ]
    project = plugin_real_code.Project("proj==1.0", "proj==1.0", ("proj",))
    comparison = plugin_real_code.Comparison(
        project,
        files=1,
        plain=[mypys, overload],
        plugin=ours,  # lost mypy's return-value error; the overload error moved to line 8
        pyright=[diagnostic(9, 9, 'parameter "shell" of type "Literal[False]"', "reportCallIssue")],
    )
    lines = plugin_real_code.section([comparison], tmp_path)
    assert (
        "| proj==1.0 | 1 | 2 | DIFFERENT (1 lost, 0 gained) "
        "(1 reworded as literal-string) | 2 | 1 |" in lines
    )
    assert "| `proj/db.py:4` | lost: Incompatible return value type | |" in lines
    assert any(line.startswith("| `proj/db.py:8` |") and "Literal[False]" in line for line in lines)
    assert any(line.startswith("| `proj/db.py:12` |") and "NOT EXPLAINED" in line for line in lines)


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_each_false_alarm_is_fixed_by_its_twin(name: str, tmp_path: Path) -> None:
    """The fix recorded for each common false alarm works: `check` flags the corpus case and
    passes its fixed copy (benchmarks/fixes.json)."""
    if not CHECKERS["mypy+plugin" if name == "mypy" else name].is_installed():
        pytest.skip(f"{name} is not installed")
    twins = false_alarm_fixes.load_twins(tmp_path / "fixed")
    assert len(twins) >= 10
    left = false_alarm_fixes.findings_left(name, twins, tmp_path / "cache")
    assert set(left.values()) == {0}
    originals = [false_alarm_fixes.Twin(benchmark.CORPUS / t.case, t.case, t.fix) for t in twins]
    flagged = false_alarm_fixes.findings_left(name, originals, tmp_path / "cache")
    # Two cases are false alarms of other checkers only (pyrefly and zuban; ty and zuban).
    others_only = {
        "sql/019_allowlist_check_then_direct_use.py",
        "sql/027_loop_literal_fragments_params.py",
    }
    assert {t.case for t in originals if flagged[t.path.resolve()] == 0} == others_only


def test_a_regenerated_file_keeps_the_sections_other_scripts_write() -> None:
    """`scripts/benchmark.py` rewrites BENCHMARKS.md: the CVE section and the sections between
    scripts/unseen.py's and scripts/server_benchmark.py's markers stay whole (before, the
    unseen projects' section was dropped and the server's lost its begin marker)."""
    from scripts.benchmark import CVE_HEADING, kept_sections

    unseen = (
        "<!-- scripts/unseen.py: begin -->\n## Findings on projects the tool was not tuned on\n"
        "\n| a |\n<!-- scripts/unseen.py: end -->"
    )
    server = (
        "<!-- scripts/server_benchmark.py: begin -->\n## Language server\n\ntimes\n"
        "<!-- scripts/server_benchmark.py: end -->"
    )
    previous = (
        f"# Benchmarks\n\n## Detection\n\nold\n\n{CVE_HEADING}\n\ncves\n\n{unseen}\n\n{server}\n"
    )
    kept = kept_sections(previous)
    assert f"{CVE_HEADING}\n\ncves" in kept
    assert unseen in kept
    assert server in kept
    assert "old" not in kept
    assert kept.count("## Language server") == 1


def test_replacing_a_section_keeps_the_next_scripts_marker() -> None:
    """``--check-cost`` replaces its subsection down to the next heading or to the marker of
    another script's section, never swallowing that marker."""
    text = (
        "## Cost\n\n### `check` against one plain run of its checker\n\nold\n\n"
        "<!-- scripts/server_benchmark.py: begin -->\n## Language server\n\nkept\n"
        "<!-- scripts/server_benchmark.py: end -->\n"
    )
    heading = "### `check` against one plain run of its checker"
    replaced = benchmark._replace_section(text, heading, [heading, "", "new"])  # pyright: ignore[reportPrivateUsage]
    assert "old" not in replaced
    assert "new\n\n<!-- scripts/server_benchmark.py: begin -->\n## Language server" in replaced


@pytest.mark.parametrize("name", ["pyright", "basedpyright"])
def test_the_plain_run_is_the_command_a_user_types(name: str, tmp_path: Path) -> None:
    """`check` starts node itself (Checker.launcher); the plain run it is measured against is
    the checker's own script, as the user runs it, and the checker `check` runs is unchanged."""
    checker = CHECKERS[name]
    if not checker.is_installed():
        pytest.skip(f"{name} is not installed")
    typed = benchmark._as_typed(checker)  # pyright: ignore[reportPrivateUsage]
    run = Invocation([tmp_path / "a.py"], None, None, (), tmp_path, None)
    assert typed.command(run)[0][0] == checker.executable()[0]
    assert checker.command(run)[0][0] != checker.executable()[0]
