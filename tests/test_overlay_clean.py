"""Generated stubs are clean (issue 44): typical use of each tightened package draws the same
errors with our overlay as without it, but at its sinks, in `check`'s other errors and in the
team's own pyright run after `init`; and a tightened copy of a package draws no error of its
own, but the package's own calls of the sinks we tightened."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.installed import require_tightened
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands.cli import main
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.source_copy import module_file

DATA = Path(__file__).parent / "data" / "typical_use"
# One file per tightened package (and per standard-library family): typical calls, one line
# marked `# error` that pyright reports with or without us (a misspelt attribute of a value
# whose type is inferred: what a copy without bodies lost), and the sinks marked `# sink`.
FILES = sorted(p.name for p in DATA.glob("use_*.py"))


@dataclass
class _Runs:
    stock: dict[str, set[int]] = field(default_factory=lambda: {})  # file -> error lines
    stock_messages: dict[str, set[tuple[int, str]]] = field(default_factory=lambda: {})
    other: dict[str, set[tuple[int, str]]] = field(default_factory=lambda: {})
    findings: dict[str, set[int]] = field(default_factory=lambda: {})
    after_init: dict[str, set[int]] = field(default_factory=lambda: {})


def _marked(name: str, mark: str) -> set[int]:
    text = (DATA / name).read_text(encoding="utf-8")
    return {n for n, line in enumerate(text.splitlines(), 1) if line.endswith(f"  # {mark}")}


def _first_line(message: str) -> str:
    return message.splitlines()[0]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> _Runs:
    """pyright without us, `check`, then `init --checker pyright` and pyright as the team runs
    it, on one project holding every file."""
    pyright = CHECKERS["pyright"]
    if not pyright.is_installed():
        pytest.skip("pyright is not installed")
    missing = [
        c.package for c in thirdparty.build(Path(sys.executable), "default", imports=[]) if c.absent
    ]
    if missing:
        pytest.skip(f"not installed here (the test extras install them): {', '.join(missing)}")
    root = tmp_path_factory.mktemp("typical")
    project = root / "project"
    shutil.copytree(DATA, project)
    (project / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n')
    files = sorted(project.glob("use_*.py"))
    python = Path(sys.executable)
    found = _Runs()
    stock = pyright.run(files, python_version=None, workdir=root / "stock", python=python)
    for d in stock.diagnostics:
        if d.severity == "error":
            name = Path(d.path).name
            found.stock.setdefault(name, set()).add(d.line)
            found.stock_messages.setdefault(name, set()).add((d.line, _first_line(d.message)))
    cache = str(root / "cache")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = main(
            ["check", "--format", "json", "--show-other", "--cache-dir", cache, "--python",
             str(python), *map(str, files)]
        )  # fmt: skip
    assert status == 1, status
    document = json.loads(printed.getvalue())
    for f in document["findings"]:
        found.findings.setdefault(Path(f["path"]).name, set()).add(f["line"])
    for o in document["other"]:
        found.other.setdefault(Path(o["path"]).name, set()).add(
            (o["line"], _first_line(o["message"]))
        )
    with contextlib.redirect_stdout(io.StringIO()):
        initialised = main(
            ["init", "--project", str(project), "--python", str(python), "--cache-dir", cache]
        )
    assert initialised == 0
    after = pyright.run(
        files, python_version=None, workdir=root / "after", project=project, python=python
    )
    for d in after.diagnostics:
        if d.severity == "error":
            found.after_init.setdefault(Path(d.path).name, set()).add(d.line)
    return found


@pytest.mark.parametrize("name", FILES)
def test_typical_use_draws_the_same_errors_with_our_stubs_but_at_its_sinks(
    name: str, runs: _Runs
) -> None:
    errors, sinks = _marked(name, "error"), _marked(name, "sink")
    assert runs.stock.get(name, set()) == errors  # what the file means to show
    assert runs.other.get(name, set()) == runs.stock_messages.get(name, set())
    assert runs.findings.get(name, set()) == sinks
    assert runs.after_init.get(name, set()) == errors | sinks


# The inline-typed packages, whose copy is their own modules with the sinks tightened.
INLINE = ["markupsafe", "jinja2", "flask", "aiosqlite", "asyncpg", "sqlite_utils", "sqlalchemy"]


@pytest.mark.parametrize("package", INLINE)
def test_a_tightened_copy_adds_no_error_but_the_packages_own_calls_of_its_sinks(
    package: str, tmp_path: Path
) -> None:
    """pyright on each tightened module of the copy and on the installed module: the copy's
    errors are the package's own, and the calls the package itself makes of a sink we
    tightened with a str (Markup's methods build Markup from str).  No one checks those
    bodies: pyright reads a package without checking it, `init` has mypy and zuban ignore
    the copies' errors and ty skip the folder, `check` reports the checked files only."""
    pyright = CHECKERS["pyright"]
    if not pyright.is_installed():
        pytest.skip("pyright is not installed")
    built = thirdparty.build(Path(sys.executable), "default", tmp_path / "cache", [package])
    found = [c for c in built if c.package == package]
    require_tightened(found)
    (coverage,) = found
    assert coverage.root is not None
    specs = [s for s in thirdparty.specifications()[coverage.distribution] if s.package == package]
    installed = next(
        s / package
        for s in thirdparty.site_packages(Path(sys.executable))
        if (s / package).is_dir()
    )
    base = tmp_path / "base" / package  # outside site-packages, as the copy is
    shutil.copytree(installed, base, ignore=shutil.ignore_patterns("__pycache__", "*.so"))

    def errors(root: Path, work: str) -> list[str]:
        files = [module_file(root, s.target) for s in specs]
        # The package's absolute imports of itself resolve to the tree checked.
        result = pyright.run(
            files, python_version="3.12", workdir=tmp_path / work, extra_paths=[root.parent]
        )
        return [
            f"{Path(d.path).name}: {_first_line(d.message)}"
            for d in result.diagnostics
            if d.severity == "error"
        ]

    expected = errors(base, "base")
    added = list(errors(coverage.root / package, "copy"))
    for error in expected:
        if error in added:
            added.remove(error)
    assert [e for e in added if "LiteralString" not in e] == []
