"""The rule pages (docs/rules/LSnnn.md): one per rule, in ruff's form, with an Example that
`check` reports and a Use instead that it does not; `typing-literalstring rule`; what SARIF says
of each rule; where a finding ends."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from typing_literalstring.analysis.findings import Finding
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.report import regions, rule_pages
from typing_literalstring.specs.sinks import RULES, Rule

PAGES = Path(__file__).resolve().parent.parent / "docs" / "rules"
# What a page's example needs besides `check`'s defaults.
OPTIONS = {"LS302": ("--profile", "strict"), "LS901": ("--report-any",)}
GROUPS = sorted({OPTIONS.get(rule.id, ()) for rule in RULES})


def _page(rule: Rule) -> str:
    return (PAGES / f"{rule.id}.md").read_text(encoding="utf-8")


def _code(rule: Rule, section: str) -> str:
    code = rule_pages.first_python_block(rule_pages.sections(_page(rule))[section])
    assert code is not None, f"{rule.id}: no ```python block under {section}"
    return code


def test_every_rule_has_a_page_and_every_page_a_rule() -> None:
    assert {p.stem for p in PAGES.glob("*.md") if p.name != "README.md"} == {r.id for r in RULES}
    assert rule_pages.pages_dir() == PAGES  # the checkout's, in a source tree


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_page_has_ruffs_form(rule: Rule) -> None:
    text = _page(rule)
    assert text.splitlines()[0] == f"# {rule.id} {rule.name}"
    assert [line[3:] for line in text.splitlines() if line.startswith("## ")] == list(
        rule_pages.SECTIONS
    )
    for section in ("Example", "Use instead"):
        ast.parse(_code(rule, section))
    assert "pyright" in rule_pages.sections(text)["Which checkers see it"]


@pytest.mark.parametrize("options", GROUPS, ids=[" ".join(g) or "default" for g in GROUPS])
def test_each_example_is_reported_and_its_fix_is_not(
    options: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every page's Example gets its rule from `check --checker pyright`, and its Use instead
    gets no finding at all; the pages that need the same options are checked in one run."""
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    rules = [rule for rule in RULES if OPTIONS.get(rule.id, ()) == options]
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "pyproject.toml").write_text("[project]\nname = 'examples'\n", encoding="utf-8")
    for rule in rules:
        (folder / f"example_{rule.id}.py").write_text(_code(rule, "Example"), encoding="utf-8")
        (folder / f"fixed_{rule.id}.py").write_text(_code(rule, "Use instead"), encoding="utf-8")
    status = main(
        ["check", "--checker", "pyright", "--format", "json",
         "--cache-dir", str(tmp_path / "cache"), *options, str(folder)]
    )  # fmt: skip
    document = json.loads(capsys.readouterr().out)
    found: dict[str, set[str]] = {}
    for finding in document["findings"]:
        found.setdefault(Path(finding["path"]).stem, set()).add(finding["rule"])
    for rule in rules:
        assert found.get(f"example_{rule.id}") == {rule.id}, (rule.id, document["findings"])
        assert f"fixed_{rule.id}" not in found, (rule.id, document["findings"])
    assert status == 1
    assert document["other_errors"] == 0


def test_rule_prints_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "LS101"]) == EXIT_OK
    assert capsys.readouterr().out == (PAGES / "LS101.md").read_text(encoding="utf-8")
    assert main(["rule", "ls302"]) == EXIT_OK  # ids are read as ruff reads them, any case
    assert capsys.readouterr().out.startswith("# LS302 log-message-not-literal\n")


def test_rule_all_lists_id_name_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "--all"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(RULES)
    for line, rule in zip(lines, RULES):
        assert re.fullmatch(rf"{rule.id}  {rule.name} *  {re.escape(rule.summary)}", line)


@pytest.mark.parametrize("argv", [["rule", "LS999"], ["rule", "sql-injection"], ["rule"]])
def test_an_unknown_or_missing_rule_is_refused_naming_the_valid_ones(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == EXIT_ERROR
    captured = capsys.readouterr()
    assert captured.out == ""
    (message,) = captured.err.splitlines()
    assert message.startswith("typing-literalstring: error: ")
    assert ", ".join(rule.id for rule in RULES) in message
    if len(argv) > 1:
        assert repr(argv[1]) in message


def test_sarif_rules_carry_the_page_and_a_security_severity() -> None:
    assert set(rule_pages.SECURITY_SEVERITY) == {rule.id for rule in RULES}
    for rule in RULES:
        descriptor = rule_pages.sarif_rule(rule)
        assert descriptor["help"]["markdown"] == _page(rule)
        assert "```" not in descriptor["help"]["text"]
        assert descriptor["help"]["text"].startswith(f"{rule.id} {rule.name}\n")
        severity = descriptor["properties"]["security-severity"]
        assert isinstance(severity, str)
        assert 0.0 < float(severity) <= 10.0
    injections = {"LS101", "LS201", "LS202", "LS401"}
    low = min(float(rule_pages.SECURITY_SEVERITY[r]) for r in injections)
    others = set(rule_pages.SECURITY_SEVERITY) - injections - {"LS001"}
    assert all(float(rule_pages.SECURITY_SEVERITY[r]) < low for r in others)


def test_the_severity_table_of_the_docs_is_the_code_s() -> None:
    text = (PAGES / "README.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| \[(LS\d{3})\]\(LS\d{3}\.md\) \| .* \| ([\d.]+) \|$", text, re.M))
    assert table == rule_pages.SECURITY_SEVERITY


def test_help_uri_is_absolute_or_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    """SARIF's helpUri is an absolute URI; GitHub refuses a file with a relative one."""
    url = rule_pages.help_uri("LS101")
    if url:
        parsed = urlparse(url)
        assert parsed.scheme == "https"
        assert parsed.netloc
    else:
        assert "helpUri" not in rule_pages.sarif_rule(RULES[1])
    monkeypatch.setattr(rule_pages, "_repository_url", lambda: "https://github.com/o/r")
    assert rule_pages.help_uri("LS101") == "https://github.com/o/r/blob/main/docs/rules/LS101.md"
    assert rule_pages.sarif_rule(RULES[1])["helpUri"] == rule_pages.help_uri("LS101")


def _finding(path: Path, line: int, column: int, callee: str = "") -> Finding:
    return Finding(str(path), line, column, RULES[0], "api", callee, "", ())


def test_a_finding_ends_where_its_call_ends(tmp_path: Path) -> None:
    app = tmp_path / "app.py"
    app.write_text(
        "def f(conn, q, é):\n"
        "    return conn.execute(q).fetchall()\n"
        "    conn.execute(\n"
        "        q,\n"
        "    )\n"
        "    ('é', conn.execute(q))\n"
        "    x = q + 'a'\n",
        encoding="utf-8",
    )
    ends = regions.Ends()
    # The call the finding names, not the call of its result that starts at the same place.
    assert ends(_finding(app, 2, 12, "conn.execute")) == regions.End(2, 27)
    assert ends(_finding(app, 2, 12)) == regions.End(2, 27)  # the innermost call
    assert ends(_finding(app, 3, 5, "conn.execute")) == regions.End(5, 6)  # across lines
    # Columns in characters or UTF-8 bytes: the end is given in the start's unit.
    assert ends(_finding(app, 6, 11, "conn.execute")) == regions.End(6, 26)  # characters
    assert ends(_finding(app, 6, 12, "conn.execute")) == regions.End(6, 27)  # bytes
    assert ends(_finding(app, 7, 9)) == regions.End(7, 16)  # the largest expression there
    assert ends(_finding(app, 7, 6)) == regions.End(7, 16)  # no expression: the statement
    assert ends(_finding(tmp_path / "gone.py", 1, 1)) is None
    known = Finding(str(app), 2, 12, RULES[0], "api", "", "", (), end_line=2, end_column=20)
    assert ends(known) == regions.End(2, 20)
