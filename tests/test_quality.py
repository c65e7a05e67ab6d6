"""The quality gates: our own code is linted, formatted and passes mypy and pyright strictly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = Path(sys.executable).parent


def _run(command: list[str]) -> None:
    proc = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"{' '.join(command)} failed:\n{proc.stdout}{proc.stderr}"


@pytest.mark.parametrize(
    "command",
    [
        pytest.param([str(SCRIPTS / "ruff"), "check", "."], id="ruff-check"),
        pytest.param([str(SCRIPTS / "ruff"), "format", "--check", "."], id="ruff-format"),
        # Settings (strict, files) are in pyproject.toml [tool.mypy] and [tool.pyright].
        pytest.param([sys.executable, "-m", "mypy"], id="mypy-strict"),
        pytest.param(
            [str(SCRIPTS / "pyright"), "--pythonpath", sys.executable], id="pyright-strict"
        ),
    ],
)
def test_quality_gate(command: list[str]) -> None:
    _run(command)


def test_readme_test_command_is_what_ci_runs() -> None:
    ci_lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci_lines[-1] in (REPO / "README.md").read_text(encoding="utf-8")
