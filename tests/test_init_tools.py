"""`init` trips over no checker (issue 29, item 1): whatever `--checker` init was given, each of
the six checkers' own default run from the project root reports nothing in the folder init
wrote and nothing more in the project's files; pyproject.toml keeps its layout; only the
packages the project imports are copied; `doctor` fails on a missing or stale folder; mypy
checks the bodies of unannotated functions."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.specs import thirdparty

STUBS = Path(".typing-literalstring", "stubs")

# An app with nothing for init to change in any checker's report.  It imports os.path
# (pyright warned "could not be resolved from source" after init), Flask (whose copy and
# Jinja2's made `mypy .` report 41 errors in the stubs) and the standard library's sinks.
APP = """\
import os.path
import sqlite3
import subprocess

from flask import Flask, render_template_string

app = Flask(__name__)


@app.route("/")
def index() -> str:
    conn = sqlite3.connect(os.path.join("data", "app.db"))
    _ = conn.execute("SELECT 1")
    _ = subprocess.run(["ls"], check=False)
    return render_template_string("hello")


def parse(text: str) -> int:
    try:
        return int(text)
    except Exception:
        return 0
    except ValueError:  # pyrefly warns of it with a preset stricter than its no-config one
        return -1
"""

# Each checker's own run from the project root, with the project's Python (the one running
# the tests, which has Flask) and an output of one line a diagnostic.
DEFAULT_RUNS = {
    "pyright": ["--pythonpath", sys.executable],
    "basedpyright": ["--pythonpath", sys.executable],
    "mypy": ["--python-executable", sys.executable, "."],
    "zuban": ["check", "--python-executable", sys.executable],
    "ty": ["check", "--output-format", "concise", "--python", sys.executable],
    "pyrefly": [
        "check", "--output-format", "min-text", "--python-interpreter-path", sys.executable
    ],
}  # fmt: skip
# A diagnostic line of each output: "path:line" and the rest.
_DIAGNOSTIC = re.compile(r"^\s*(?:ERROR |WARN )?(\S+?\.pyi?):(\d+)(?::\d+)?(?:-\d+)?[: ]")


def _installed(*names: str) -> None:
    for name in names:
        if not CHECKERS[name].is_installed():
            pytest.skip(f"{name} is not installed")


def _has(*packages: str) -> bool:
    sites = thirdparty.site_packages(Path(sys.executable))
    return all(any((s / p).is_dir() for s in sites) for p in packages)


def _diagnostics(name: str, project: Path) -> list[str]:
    """The diagnostic lines of ``name``'s default run in ``project``."""
    proc = subprocess.run(
        [*CHECKERS[name].executable(), *DEFAULT_RUNS[name]],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode in (0, 1), f"{name} failed: {output}"
    return sorted(
        line.strip() for line in output.splitlines() if _DIAGNOSTIC.match(line) or "error:" in line
    )


@pytest.mark.parametrize(
    "configured",
    [("pyright",), ("pyright", "mypy", "ty"), ("basedpyright", "zuban", "ty", "pyrefly")],
)
def test_every_checkers_own_run_reports_nothing_more_after_init(
    tmp_path: Path, configured: tuple[str, ...]
) -> None:
    _installed(*configured)
    if not _has("flask", "jinja2"):
        pytest.skip("Flask is not installed (the test extras install it)")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    (tmp_path / "app.py").write_text(APP)
    present = [name for name in DEFAULT_RUNS if CHECKERS[name].is_installed()]
    before = {name: _diagnostics(name, tmp_path) for name in present}
    args = ["init", "--project", str(tmp_path), "--python", sys.executable]
    for name in configured:
        args += ["--checker", name]
    assert main(args) == EXIT_OK
    for name in present:
        after = _diagnostics(name, tmp_path)
        inside = [line for line in after if ".typing-literalstring" in line]
        assert inside == [], f"{name} reports in the generated folder: {inside[:5]}"
        if name == "pyrefly" and name in configured:
            continue  # init --checker pyrefly turns on its "default" preset: it must, to enforce
        assert after == before[name], f"{name}: {before[name]} became {after}"


LAYOUT = """\
[project]
name = "demo"
version = "0"

[tool.setuptools_scm]

[project.scripts]
demo = "demo:main"

[tool.ruff]
line-length = 140

[tool.ty.src]
exclude = [
    '**/build/',
    '**/.venv/',
    '**/.ruff_cache/'
]

# Extras.
[project.optional-dependencies]
dev = ["pytest"]
"""


def test_init_keeps_the_layout_of_pyproject(tmp_path: Path) -> None:
    _installed("pyright", "mypy", "ty")
    (tmp_path / "pyproject.toml").write_text(LAYOUT)
    args = ["init", "--project", str(tmp_path)]
    for name in ("pyright", "mypy", "ty"):
        args += ["--checker", name]
    assert main(args) == EXIT_OK
    text = (tmp_path / "pyproject.toml").read_text()
    # Everything up to the multi-line array is as it was, and the array keeps its lines and
    # quotes, ours appended in them.
    assert text.startswith(LAYOUT.split("    '**/.ruff_cache/'")[0])
    assert (
        "exclude = [\n    '**/build/',\n    '**/.venv/',\n    '**/.ruff_cache/',\n"
        "    '.typing-literalstring/stubs/'\n]\n" in text
    )
    # The new tables come after the last [tool.*] table, a blank line before each, under
    # their own headers only; the table after them keeps its comment and its blank line.
    tail = text.split("    '.typing-literalstring/stubs/'\n]\n", 1)[1]
    assert tail.startswith("\n[tool.pyright]\n")
    assert "\n\n[tool.mypy]\n" in tail
    assert "\n\n[[tool.mypy.overrides]]\n" in tail
    assert "\n\n[tool.ty.environment]\n" in tail
    assert tail.endswith('\n\n# Extras.\n[project.optional-dependencies]\ndev = ["pytest"]\n')
    assert "[tool.ty]\n" not in text
    assert "[tool]\n" not in text
    assert max(len(line) for line in text.splitlines()) <= 100
    assert main(args) == EXIT_OK  # a second init changes nothing
    assert (tmp_path / "pyproject.toml").read_text() == text


def test_init_copies_only_the_packages_the_project_imports(tmp_path: Path) -> None:
    _installed("pyright")
    if not _has("flask", "jinja2", "sqlalchemy", "django"):
        pytest.skip("Flask, SQLAlchemy and Django are not installed (the test extras do it)")
    (tmp_path / "app.py").write_text("import sqlite3\nimport subprocess\n")
    # Read with ast, never run: importing this file would write the marker.
    marker = tmp_path / "ran"
    (tmp_path / "tool.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    args = ["init", "--project", str(tmp_path), "--python", sys.executable]
    assert main(args) == EXIT_OK
    overlay = tmp_path / STUBS / "pyright"
    copied = {p.name for p in overlay.iterdir() if p.is_dir()}
    assert copied == {"asyncio", "logging", "os", "sqlite3"}, copied
    assert not marker.exists()
    # A file importing Flask brings Flask and what Flask requires (Jinja2's templates).
    (tmp_path / "web.py").write_text("def f() -> None:\n    from flask import Flask\n")
    assert main(args) == EXIT_OK
    copied = {p.name for p in overlay.iterdir() if p.is_dir()}
    assert {"flask", "jinja2", "markupsafe"} <= copied
    assert "jinja2-stubs" not in copied  # pyright reads one copy of each package
    assert not {"sqlalchemy", "django", "sqlalchemy-stubs", "django-stubs"} & copied


def test_doctor_fails_when_the_folder_is_missing_or_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright")
    (tmp_path / "app.py").write_text("import sqlite3\n")
    assert main(["init", "--project", str(tmp_path), "--python", sys.executable]) == EXIT_OK
    doctor = ["doctor", "--project", str(tmp_path), "--checker", "pyright"]
    doctor += ["--python", sys.executable]
    capsys.readouterr()
    assert main(doctor) == EXIT_OK
    record = tmp_path / STUBS / "init.json"
    data = json.loads(record.read_text())
    data["overlays"]["pyright"]["checker_version"] = "0.0.1"
    record.write_text(json.dumps(data))
    assert main(doctor) == EXIT_ERROR
    assert "was built from the typeshed of pyright 0.0.1" in capsys.readouterr().err
    # A CI job whose checkout git-ignores the folder: pyright would run without the stubs.
    for path in sorted((tmp_path / STUBS).rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    assert main(doctor) == EXIT_ERROR
    err = capsys.readouterr().err
    assert ".typing-literalstring/stubs/pyright is missing: pyproject.toml points pyright" in err
    assert "or commit the folder" in err


UNTYPED = """\
import sqlite3


class Command:
    def handle(self, *args, **options):
        sqlite3.connect(":memory:").execute(f"SELECT * FROM {options['table']}")
"""


def _mypy_lines(project: Path) -> str:
    proc = subprocess.run(
        [*CHECKERS["mypy"].executable(), *DEFAULT_RUNS["mypy"]],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    return proc.stdout + proc.stderr


def test_init_says_mypy_skips_unannotated_bodies_and_leaves_check_untyped_defs_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Django's `handle(self, *args, **options)` is unannotated: mypy skips its body, and the
    injection in it, unless check_untyped_defs is on.  init does not turn it on (on
    django-extensions it added 479 mypy errors of the project's own, and 260 in pyrefly,
    which reads [tool.mypy]) but says so, and doctor says so while it is off."""
    _installed("mypy")
    (tmp_path / "command.py").write_text(UNTYPED)
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\nwarn_unused_configs = true\n")
    assert main(["init", "--project", str(tmp_path), "--checker", "mypy"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "mypy does not check the bodies of unannotated functions (check_untyped_defs " in out
    assert "init leaves it off: `check_untyped_defs = true` in [tool.mypy] checks them" in out
    assert "check_untyped_defs" not in (tmp_path / "pyproject.toml").read_text()
    assert "command.py:6:" not in _mypy_lines(tmp_path)
    doctor = ["doctor", "--project", str(tmp_path), "--checker", "mypy"]
    assert main(doctor) == EXIT_OK
    line = capsys.readouterr().out.splitlines()[0]
    assert "mypy does not check unannotated bodies (check_untyped_defs is off)" in line
    # Turned on by the team, our plugin sees the injection, and neither init nor doctor
    # speaks of it any more.
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace("[tool.mypy]\n", "[tool.mypy]\ncheck_untyped_defs = true\n")
    )
    output = _mypy_lines(tmp_path)
    assert "command.py:6:" in output, output
    assert main(["init", "--project", str(tmp_path), "--checker", "mypy"]) == EXIT_OK
    assert main(doctor) == EXIT_OK
    assert "unannotated" not in capsys.readouterr().out
