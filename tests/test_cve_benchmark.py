"""scripts/cve_benchmark.py: what counts as finding a CVE (the full run, which downloads the
releases, is not a test)."""

from __future__ import annotations

import json
from pathlib import Path

from scripts.cve_benchmark import (
    Cve,
    Finding,
    Place,
    Result,
    Run,
    _load_runs,  # pyright: ignore[reportPrivateUsage]
    judge,
    to_json,
    write_section,
)

# vault-cli's CVE-2021-43837 as the corpus has it: the template sink is Client.render_template's
# `env.from_string(template)` (client.py:599), reached from two callers of that wrapper.
CVE = Cve(
    id="CVE-2021-43837",
    advisory="https://github.com/advisories/GHSA-q34h-97wf-8r8j",
    package="vault-cli",
    vulnerable="2.2.0",
    fixed="3.0.0",
    family="template",
    path="vault_cli/client.py",
    line=599,
    statement="return env.from_string(template).render(vault=vault)",
    fixed_path="vault_cli/client.py",
    fixed_line=523,
    fix="",
    dependencies=("jinja2",),
    paths=("vault_cli",),
)
VULNERABLE = Place("vault_cli/client.py", (599, 599), (594, 599), (590, 600), "render_template")
FIXED = Place("vault_cli/client.py", (523, 523), (518, 523), (514, 524), "render_template")


def _verdict(vulnerable: list[Finding], fixed: list[Finding]) -> tuple[str, str, list[str]]:
    runs = {
        ("ls-pyright", "vulnerable"): Run("ls-pyright", "vulnerable", 1.0, vulnerable),
        ("ls-pyright", "fixed"): Run("ls-pyright", "fixed", 1.0, fixed),
    }
    verdict = judge(CVE, "ls-pyright", runs, VULNERABLE, FIXED)
    return verdict.vulnerable, verdict.fixed, verdict.rules


def _caller(line: int, *chain: tuple[str, int]) -> Finding:
    """A finding at a call of the wrapper in cli.py, with where its chain goes."""
    return Finding("vault_cli/cli.py", line, line, "LS401", chain=chain)


def test_a_finding_whose_chain_reaches_the_sink_line_finds_the_cve() -> None:
    """Reported at the wrapper's callers ("one flow, one finding"), the flow still reaches the
    sink call: its chain's last place is on the sink's line, in the vulnerable file."""
    vulnerable = [_caller(720, ("vault_cli/client.py", 599))]
    fixed = [_caller(640, ("vault_cli/client.py", 523))]
    assert _verdict(vulnerable, fixed) == ("found", "flag stays", ["LS401"])


def test_a_chain_elsewhere_does_not_find_the_cve() -> None:
    """Only the sink's lines of the vulnerable file count, for a chain's place as for the
    finding: another line of that file, or that line of another file, is no detection."""
    elsewhere = [
        _caller(720, ("vault_cli/client.py", 612)),
        _caller(599, ("vault_cli/other.py", 599)),
        _caller(730),
    ]
    assert _verdict(elsewhere, []) == ("missed", "-", [])


def test_saved_runs_keep_the_chain_and_older_ones_load_without_it(tmp_path: Path) -> None:
    """``--reuse`` judges the runs of an earlier ``--json`` again: the chain is saved with
    each finding, and a file written before findings had one still loads."""
    finding = _caller(720, ("vault_cli/client.py", 599))
    saved = tmp_path / "runs.json"
    data = to_json([Result(CVE, [Run("ls-pyright", "vulnerable", 1.0, [finding])])])
    saved.write_text(json.dumps(data), encoding="utf-8")
    assert _load_runs(saved)[CVE.id][0].findings == [finding]
    del data[0]["runs"][0]["findings"][0]["chain"]
    saved.write_text(json.dumps(data), encoding="utf-8")
    (older,) = _load_runs(saved)[CVE.id][0].findings
    assert older == _caller(720)


def test_writing_the_section_keeps_the_next_scripts_marker(tmp_path: Path) -> None:
    """The section ends at the next heading or at the marker that opens another script's
    section: the line before scripts/unseen.py's heading, which a write used to swallow (the
    next unseen.py run then found no section of its own and appended a second one)."""
    report = tmp_path / "BENCHMARKS.md"
    report.write_text(
        "# Benchmarks\n\n## Published CVEs (held out)\n\nold table\n\n"
        "<!-- scripts/unseen.py: begin -->\n## Findings on projects the tool was not tuned on\n"
        "\nunseen\n<!-- scripts/unseen.py: end -->\n",
        "utf-8",
    )
    write_section(report, "new table")
    text = report.read_text("utf-8")
    assert "old table" not in text
    assert "new table" in text
    assert "<!-- scripts/unseen.py: begin -->\n## Findings" in text
