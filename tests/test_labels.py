"""Wrong labels and tool mistakes from issue 28 ("False alarms and wrong labels"), each in the
shape it had in real code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_OK
from typing_literalstring.commands.cli import main

PYPROJECT = '[project]\nname = "app"\nversion = "0"\n'


def _check(
    name: str,
    project: Path,
    capsys: pytest.CaptureFixture[str],
    *options: str,
    cache: Path | None = None,
) -> tuple[int, dict[str, Any]]:
    """``check`` of ``project/app.py`` in JSON (``name``: pyright or mypy, which runs with our
    plugin): its exit status and its document."""
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    status = main(
        ["check", "--checker", name, "--format", "json", "--cache-dir",
         str(cache or project / "cache"), *options, str(project / "app.py")]
    )  # fmt: skip
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return status, document


def _project(tmp_path: Path, program: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "app.py").write_text(program, encoding="utf-8")
    return tmp_path


# -- 3. A literal module constant stays literal when mypy reruns from its cache ---------------

# The module constant of a logging format, used in a function (the shape).
LOG_CONSTANT = """\
import logging

logger = logging.getLogger(__name__)

MESSAGE = "user %s"


def greet(user: str) -> None:
    logger.info(MESSAGE, user)
"""


def test_a_literal_module_constant_stays_literal_after_an_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first check is clean; after an edit of the file, mypy rechecks it with every other
    module (the tightened logging stubs) from its incremental cache.  No type analysis then
    meets LiteralString, the plugin did not know its alias, and `MESSAGE` stayed `str`: LS301
    on the second check, and on every one after it."""
    project = _project(tmp_path, LOG_CONSTANT)
    cache = tmp_path / "shared-cache"  # kept across the runs, as ~/.cache is
    assert _check("mypy", project, capsys, cache=cache)[0] == EXIT_OK
    (project / "app.py").write_text(LOG_CONSTANT + "\n# edited\n", encoding="utf-8")
    status, document = _check("mypy", project, capsys, cache=cache)
    assert document["findings"] == []
    assert status == EXIT_OK


def test_the_plugin_marks_constants_when_every_declaration_comes_from_the_cache(
    tmp_path: Path,
) -> None:
    """The same under mypy itself: lib.py (the only module that writes LiteralString) comes
    from the cache when main.py was edited."""
    pytest.importorskip("mypy")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = typing_literalstring.mypy\n")
    (tmp_path / "lib.py").write_text(
        "from typing_extensions import LiteralString\n"
        "def sink(s: LiteralString, *args: object) -> None: ...\n",
        encoding="utf-8",
    )
    program = (
        "from lib import sink\n"
        'MESSAGE = "user %s"\n'
        "def greet(user: str) -> None:\n"
        "    sink(MESSAGE, user)\n"
        "    sink(user)\n"
    )

    def errors() -> list[str]:
        proc = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file=mypy.ini", "--cache-dir=cache",
             "--no-error-summary", "main.py", "lib.py"],
            cwd=tmp_path, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert proc.returncode in (0, 1), proc.stdout + proc.stderr
        return [line.split(":")[1] for line in proc.stdout.splitlines() if ": error:" in line]

    (tmp_path / "main.py").write_text(program, encoding="utf-8")
    assert errors() == ["5"]
    (tmp_path / "main.py").write_text(program + "# edited\n", encoding="utf-8")
    assert errors() == ["5"]
