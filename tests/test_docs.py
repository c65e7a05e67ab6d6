"""The documentation holds: README.md stays short, every relative link in it and in docs/ leads
to a file, and the GitHub Actions workflow of docs/ci.md does what the page says when its shell
steps run on a project with a known injection."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

# PyYAML comes with pre-commit, a test dependency (its configuration is YAML), and its types with
# django-stubs (types-PyYAML).
import yaml

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"
WORKFLOW = DOCS / "github-actions.yml"
SCRIPTS = Path(sys.executable).parent

# docs/configuration.md is written alongside this page by the work on `check`'s options
# (select, ignore, [tool.typing-literalstring]); links to it may come first.
MAY_BE_ABSENT = {DOCS / "configuration.md"}

LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")

APP = """\
import sqlite3


def find(conn: sqlite3.Connection, user: str) -> None:
    conn.execute(f"SELECT * FROM t WHERE name = '{user}'")
"""


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def _relative_links(page: Path) -> list[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    targets = [m.group(1) for m in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:|#", t)]


def test_readme_is_at_most_200_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: move detail to docs/"


def test_every_relative_link_leads_to_a_file() -> None:
    broken: list[str] = []
    for page in _pages():
        for target in _relative_links(page):
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if not path.exists() and path not in MAY_BE_ABSENT:
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert not broken, "links to nothing:\n" + "\n".join(broken)


def test_the_readme_links_every_rule_page() -> None:
    targets = set(_relative_links(README))
    for page in sorted((DOCS / "rules").glob("LS*.md")):
        assert f"docs/rules/{page.name}" in targets, page.name


def _workflow() -> dict[str, Any]:
    loaded = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return cast("dict[str, Any]", loaded)


def _steps() -> list[dict[str, Any]]:
    jobs = cast("dict[str, dict[str, Any]]", _workflow()["jobs"])
    (job,) = jobs.values()
    return cast("list[dict[str, Any]]", job["steps"])


def test_the_workflow_pins_its_actions_and_may_upload_to_code_scanning() -> None:
    assert _workflow()["permissions"] == {"contents": "read", "security-events": "write"}
    uses = [str(step["uses"]) for step in _steps() if "uses" in step]
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    for action in uses:
        # A full commit, not a tag or branch that can be moved to other code.
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", action), action
    lines = WORKFLOW.read_text(encoding="utf-8").splitlines()
    for line in lines:
        if "uses:" in line:
            assert re.search(r"@[0-9a-f]{40} # v\d+\.\d+\.\d+$", line), line


def test_the_workflow_uploads_the_file_that_the_check_writes_unless_the_check_failed() -> None:
    (upload,) = [s for s in _steps() if "upload-sarif" in str(s.get("uses", ""))]
    (check,) = [s for s in _steps() if "typing-literalstring check" in str(s.get("run", ""))]
    sarif_file = upload["with"]["sarif_file"]
    assert f"--format sarif > {sarif_file}" in check["run"]
    condition = str(upload["if"])
    assert "!cancelled()" in condition
    assert f"steps.{check['id']}.outputs.status == '1'" in condition
    assert "'2'" not in condition


def test_the_workflow_steps_write_sarif_with_the_finding(tmp_path: Path) -> None:
    if not (SCRIPTS / "pyright").is_file():
        pytest.skip("pyright is not installed")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    (project / "app.py").write_text(APP)
    output = tmp_path / "github_output"
    output.touch()
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PATH"] = f"{SCRIPTS}{os.pathsep}{env.get('PATH', '')}"
    env["GITHUB_OUTPUT"] = str(output)
    env["TYPING_LITERALSTRING_CACHE"] = str(tmp_path / "cache")

    ran: list[str] = []
    for step in _steps():
        script = step.get("run")
        # Installation is the runner's business; the upload is an action, not a shell step.
        if script is None or "pip install" in script:
            continue
        # GitHub runs a `run:` step with `bash --noprofile --norc -eo pipefail {0}`.
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        ran.append(step.get("name", script))
        # Exit status 1: findings, so the job fails after the upload.
        assert proc.returncode == 1, proc.stdout + proc.stderr
    assert ran == ["Check"]
    assert output.read_text().splitlines() == ["status=1"]

    sarif = json.loads((project / "typing-literalstring.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    (run,) = sarif["runs"]
    (result,) = run["results"]
    assert result["ruleId"] == "LS101"
    (location,) = result["locations"]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "app.py"
    assert location["physicalLocation"]["region"]["startLine"] == 5


def _pre_commit_examples() -> list[str]:
    text = (DOCS / "ci.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", text, re.DOTALL)
    assert blocks, "docs/ci.md has no ```yaml block starting with # .pre-commit-config.yaml"
    return blocks


@pytest.mark.parametrize("index", [0, 1])
def test_the_pre_commit_examples_are_valid_configurations(tmp_path: Path, index: int) -> None:
    pre_commit = SCRIPTS / "pre-commit"
    if not pre_commit.is_file():
        pytest.skip("pre-commit is not installed")
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(_pre_commit_examples()[index])
    proc = subprocess.run(
        [str(pre_commit), "validate-config", str(config)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    manifest = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    ours = {str(hook["id"]) for hook in manifest}
    loaded = yaml.safe_load(config.read_text())
    used = {str(hook["id"]) for repo in loaded["repos"] for hook in repo["hooks"]}
    assert used <= ours


def _pyright_rules(project: Path, env: dict[str, str]) -> list[tuple[str, str]]:
    proc = subprocess.run(
        [str(SCRIPTS / "pyright"), "--outputjson", "app.py"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    report = cast("dict[str, Any]", json.loads(proc.stdout))
    diagnostics = cast("list[dict[str, Any]]", report["generalDiagnostics"])
    return [(str(d["severity"]), str(d.get("rule"))) for d in diagnostics]


def test_what_the_editor_shows_after_init(tmp_path: Path) -> None:
    """docs/editors.md: pyright, as Pylance runs it, after `init --checker pyright`."""
    if not (SCRIPTS / "pyright").is_file():
        pytest.skip("pyright is not installed")
    project = tmp_path / "project"
    project.mkdir()
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[project]\nname = "demo"\nversion = "0"\n')
    app = project / "app.py"
    app.write_text(APP)
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["TYPING_LITERALSTRING_CACHE"] = str(tmp_path / "cache")
    error = [("error", "reportArgumentType")]

    assert _pyright_rules(project, env) == []
    init = subprocess.run(
        [str(SCRIPTS / "typing-literalstring"), "init", "--checker", "pyright"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert init.returncode == 0, init.stdout + init.stderr
    assert "[tool.pyright]" in pyproject.read_text()
    assert _pyright_rules(project, env) == error

    # Our comment is for `check` alone; the checker's own hides the error.
    line = "    conn.execute(f\"SELECT * FROM t WHERE name = '{user}'\")"
    for comment, shown in [
        ("# typing-literalstring: ignore[LS101] names come from our settings", error),
        ("# pyright: ignore[reportArgumentType]", []),
        ("# type: ignore", []),
    ]:
        app.write_text(APP.replace(line, f"{line}  {comment}"))
        assert _pyright_rules(project, env) == shown, comment
    app.write_text(APP)

    configured = pyproject.read_text()
    for settings, shown in [
        ('typeCheckingMode = "off"', []),
        ('typeCheckingMode = "off"\nreportArgumentType = "error"', error),
    ]:
        table = "[tool.pyright]\n"
        pyproject.write_text(configured.replace(table, f"{table}{settings}\n"))
        assert _pyright_rules(project, env) == shown, settings


def _console_lines(page: Path) -> list[str]:
    match = re.search(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), re.DOTALL)
    assert match, f"{page.name} has no console block"
    return match.group(1).splitlines()


@pytest.mark.parametrize("page", [README, DOCS / "check.md"], ids=lambda p: p.name)
def test_the_example_output_is_what_check_prints(page: Path, tmp_path: Path) -> None:
    """The first console block of the page, a check of examples/vulnerable_app.py, is real output:
    each line but the command and the header (which names the machine's interpreter) is printed,
    where `...` stands for any text."""
    if not (SCRIPTS / "pyright").is_file():
        pytest.skip("pyright is not installed")
    lines = _console_lines(page)
    assert lines[0] == "$ typing-literalstring check examples/vulnerable_app.py"
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["TYPING_LITERALSTRING_CACHE"] = str(tmp_path / "cache")
    proc = subprocess.run(
        [str(SCRIPTS / "typing-literalstring"), "check", "examples/vulnerable_app.py"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    printed = proc.stdout.splitlines()
    for line in lines[2:]:
        if line == "...":
            continue
        pattern = ".*".join(re.escape(part) for part in line.split("..."))
        assert any(re.fullmatch(pattern, out) for out in printed), line
