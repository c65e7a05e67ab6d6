from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.interpreters import find_interpreters

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def interpreters() -> dict[str, Path | None]:
    return find_interpreters()


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel, built once per test session from the source tree."""
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One overlay cache per test file: each test would otherwise build the overlays again."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def checker_processes(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The command of every checker process started from now on, the version query aside:
    Checker._start, the one place checker processes start, calls run_process by this name."""
    from typing_literalstring.checkers import base
    from typing_literalstring.core import processes

    started: list[list[str]] = []
    real = processes.run_process

    def counted(command: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:  # noqa: ANN401
        if "--version" not in command:
            started.append(list(command))
        return real(command, **kwargs)

    monkeypatch.setattr(base, "run_process", counted)
    return started
