"""`check` on a project as users have one: its own LiteralString helpers, a library typed with
LiteralString (psycopg 3), its root found from anywhere inside, its own virtual environment,
folders without __init__.py, and broken input."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.analysis import stub_errors
from typing_literalstring.analysis.findings import CheckResult
from typing_literalstring.analysis.literal_errors import (
    is_about_literal_string,
    is_untyped_module,
    unresolved_module,
)
from typing_literalstring.checkers import (
    CHECKERS,
    COMMAND_CHECKERS,
    Checker,
    Diagnostic,
    MypyPlugin,
    RunResult,
)
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK
from typing_literalstring.commands.check import run_check
from typing_literalstring.commands.cli import main
from typing_literalstring.core.errors import CheckerFailedError
from typing_literalstring.report import notices

REPORTS = """\
from typing_extensions import LiteralString


def run_report(sql: LiteralString) -> None: ...


class Db:
    def query(self, text: LiteralString) -> None: ...


def build(user: str) -> LiteralString:
    return user  # return


def use(user: str, db: Db) -> None:
    run_report(f"SELECT {user}")  # helper
    db.query("SELECT " + user)  # method
    declared: LiteralString = user  # assignment
    run_report("SELECT 1")
    db.query("SELECT name FROM users")


def calls_inside(user: str, db: Db) -> None:
    db.query(user.strip())  # a call as the argument
    stripped: LiteralString = user.strip()  # a call assigned
"""
MAIN = """\
from myapp.reports import run_report


def handler(user: str) -> None:
    run_report(user)  # imported helper
"""
PSYCOPG = """\
import psycopg
from psycopg import sql


def fetch(conn: psycopg.Connection, user: str, table: str) -> None:
    with conn.cursor() as cur:
        cur.execute(f"SELECT * FROM users WHERE name = '{user}'")  # f-string
        cur.execute("SELECT * FROM users WHERE name = %s", (user,))
        cur.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(table)))
        cur.execute(sql.SQL(f"SELECT * FROM {table}"))  # SQL of an f-string
    conn.execute("SELECT " + user)  # concatenation
"""


def _checker(name: str) -> Checker:
    checker = CHECKERS[name]
    if not checker.is_installed():
        pytest.skip(f"{name} is not installed")
    return checker


def _marked(path: Path) -> set[int]:
    """The lines whose comment says what reaches a LiteralString there."""
    return {n for n, text in enumerate(path.read_text().splitlines(), 1) if "  # " in text}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "myapp-project"
    package = root / "myapp"
    package.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "myapp"\n')
    (package / "__init__.py").write_text("")
    (package / "reports.py").write_text(REPORTS)
    (package / "main.py").write_text(MAIN)
    return root


def _run(args: list[str], capsys: pytest.CaptureFixture[str], cache: Path) -> tuple[int, str, str]:
    status = main(["check", "--cache-dir", str(cache), *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _json(
    args: list[str], capsys: pytest.CaptureFixture[str], cache: Path
) -> tuple[int, dict[str, Any]]:
    status, out, _ = _run(["--format", "json", *args], capsys, cache)
    return status, json.loads(out)


def _tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text) under ``root``."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _places(document: dict[str, Any]) -> set[tuple[str, int, str]]:
    return {(f["path"], f["line"], f["rule"]) for f in document["findings"]}


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_the_teams_own_literal_string_helpers_are_findings(
    name: str,
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _checker(name)
    monkeypatch.chdir(project)
    status, document = _json(["--checker", name], capsys, tmp_path / "cache")
    assert status == EXIT_FINDINGS
    expected = {("myapp/reports.py", n, "LS001") for n in _marked(project / "myapp/reports.py")}
    expected |= {("myapp/main.py", n, "LS001") for n in _marked(project / "myapp/main.py")}
    assert _places(document) == expected
    by_line = {(f["path"], f["line"]): f for f in document["findings"]}
    helper = by_line[("myapp/main.py", 5)]
    assert helper["sink"] == "myapp.reports.run_report"
    assert helper["callee"] == "run_report"
    assert "Keep the text literal" in helper["fix"]
    assert by_line[("myapp/reports.py", 12)]["sink"] == "the return value of myapp.reports.build"
    # mypy puts the error at the argument, itself a call: the finding names the outer call.
    assert by_line[("myapp/reports.py", 24)]["callee"] == "db.query"
    assert by_line[("myapp/reports.py", 25)]["callee"] == ""
    assert by_line[("myapp/reports.py", 25)]["sink"] == (
        "a variable, attribute or item declared LiteralString"
    )
    assert document["other_errors"] == 0


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_psycopg3_typed_with_literal_string_is_checked(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """psycopg 3 (installed from PyPI) types Cursor.execute and sql.SQL with LiteralString:
    their calls are SQL sink calls, judged by the checker's answers like sqlite3's."""
    _checker(name)
    pytest.importorskip("psycopg")
    monkeypatch.chdir(tmp_path)
    code = tmp_path / "db.py"
    code.write_text(PSYCOPG)
    status, document = _json(["--checker", name, str(code)], capsys, tmp_path / "cache")
    assert status == EXIT_FINDINGS
    assert _places(document) == {("db.py", n, "LS101") for n in _marked(code)}
    sinks = {f["line"]: f["sink"] for f in document["findings"]}
    assert sinks[7] == "psycopg Connection/Cursor.execute"
    assert sinks[10] == "psycopg.sql.SQL"
    for finding in document["findings"]:
        if finding["line"] == 7:
            assert "psycopg.sql" in finding["fix"]


def test_the_same_findings_from_the_root_its_parent_and_a_subfolder(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _checker("pyright")
    cache = tmp_path / "cache"
    monkeypatch.chdir(project)
    _, from_root = _json([], capsys, cache)
    monkeypatch.chdir(project.parent)
    _, from_parent = _json([project.name], capsys, cache)
    monkeypatch.chdir(project / "myapp")
    _, from_subfolder = _json([], capsys, cache)
    lines = {(Path(p).name, n, r) for p, n, r in _places(from_root)}
    assert lines == {(Path(p).name, n, r) for p, n, r in _places(from_parent)}
    assert lines == {(Path(p).name, n, r) for p, n, r in _places(from_subfolder)}
    # Paths are shown from where the user stands.
    assert ("myapp/main.py", 5, "LS001") in _places(from_root)
    assert ("myapp-project/myapp/main.py", 5, "LS001") in _places(from_parent)
    assert ("main.py", 5, "LS001") in _places(from_subfolder)
    assert from_subfolder["project"] == str(project)


def _venv_with_library(folder: Path) -> Path:
    """A virtual environment holding a library typed with LiteralString, and nothing else."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    purelib = subprocess.run(
        [
            str(folder / "bin" / "python"),
            "-c",
            "import sysconfig; print(sysconfig.get_path('purelib'))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    library = Path(purelib) / "reportlib"
    library.mkdir()
    (library / "__init__.py").write_text(
        "from typing_extensions import LiteralString\n\n"
        "def run_query(sql: LiteralString) -> None: ...\n"
    )
    (library / "py.typed").write_text("")
    return folder / "bin" / "python"


@pytest.mark.skipif(sys.platform == "win32", reason="the venv layout used here is POSIX")
def test_the_projects_virtual_environment_resolves_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tool is installed apart from the project (pipx, pre-commit): the project's .venv
    still resolves its imports, and without it the unresolved import is said, not hidden."""
    _checker("pyright")
    root = tmp_path / "app"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "app.py").write_text(
        "from reportlib import run_query\n\ndef f(user: str) -> None:\n    run_query(user)\n"
    )
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.chdir(root)
    cache = tmp_path / "cache"
    status, document = _json([], capsys, cache)
    assert status == EXIT_OK
    unresolved = document["unresolved_imports"]
    assert isinstance(unresolved, dict)
    assert unresolved["modules"] == ["reportlib"]
    assert "--python" in unresolved["notice"]
    status, out, _ = _run([], capsys, cache)
    assert "warning: 1 imported module could not be resolved (reportlib)" in out
    status, sarif, _ = _run(["--format", "sarif"], capsys, cache)
    notes = json.loads(sarif)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert "reportlib" in notes[0]["message"]["text"]

    python = _venv_with_library(root / ".venv")
    status, document = _json([], capsys, cache)
    assert status == EXIT_FINDINGS
    assert _places(document) == {("app.py", 4, "LS001")}
    assert document["python"] == {"path": str(python), "source": ".venv in the project root"}
    assert document["unresolved_imports"]["modules"] == []
    # The virtual environment itself is never checked as project code.
    assert document["files"] == 1
    # --python wins over the project's .venv; a path that is no Python is refused plainly.
    status, _, err = _run(["--python", str(tmp_path / "nope")], capsys, cache)
    assert status == EXIT_ERROR
    assert "--python" in err
    assert "no such interpreter" in err


def test_mypy_checks_unannotated_bodies_and_folders_without_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _checker("mypy")
    monkeypatch.chdir(tmp_path)
    root = _tree(
        tmp_path / "proj",
        {
            "setup.cfg": "",
            "plugins/util.py": "import subprocess\n\ndef handler(request):\n"
            '    subprocess.run("ls " + str(request), shell=True)\n',
            "scripts/util.py": "def g() -> None: ...\n",
        },
    )
    status, document = _json(["--checker", "mypy", str(root)], capsys, tmp_path / "cache")
    # Two util.py in folders without __init__.py: plain mypy stops on "Duplicate module".
    assert status == EXIT_FINDINGS
    assert _places(document) == {("proj/plugins/util.py", 4, "LS201")}


def test_mypy_leaves_out_a_folder_it_cannot_name_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Plain mypy stops on the whole run for borgmatic's tests/end-to-end/ (it holds
    __init__.py) and invoke's tests/_support/configs/all-four/invoke.py (a second module
    `invoke`); check leaves those files out, says so, and checks the rest."""
    _checker("mypy")
    monkeypatch.chdir(tmp_path)
    shell = "import os\n\ndef f(u: str) -> None:\n    os.system(u)\n"
    root = _tree(
        tmp_path / "proj",
        {
            "pyproject.toml": "",
            "tests/__init__.py": "",
            "tests/end-to-end/__init__.py": "",
            "tests/end-to-end/test_e2e.py": shell,
            "app.py": shell,
            "app2/__init__.py": "",
            "tests/configs/all-four/app2.py": "x = 1\n",
            "tests/configs/one-more/helper.py": shell,
        },
    )
    cache = tmp_path / "cache"
    status, document = _json(["--checker", "mypy", str(root)], capsys, cache)
    assert status == EXIT_FINDINGS
    assert _places(document) == {
        ("proj/app.py", 4, "LS201"),
        ("proj/tests/configs/one-more/helper.py", 4, "LS201"),  # a top-level module `helper`
    }
    assert sorted(document["unchecked"]["files"]) == [
        "proj/tests/configs/all-four/app2.py",
        "proj/tests/end-to-end/__init__.py",
        "proj/tests/end-to-end/test_e2e.py",
    ]
    notice = document["unchecked"]["notice"]
    assert "proj/tests/end-to-end holds __init__.py" in notice
    assert "proj/tests/configs/all-four is not a valid package name" in notice
    assert "second module 'app2'" in notice
    status, out, _ = _run(["--checker", "mypy", str(root)], capsys, cache)
    assert "warning: 3 files not checked: mypy+plugin cannot name their modules" in out
    if CHECKERS["pyright"].is_installed():  # other checkers take the folder
        status, document = _json(["--checker", "pyright", str(root)], capsys, cache)
        assert "proj/tests/end-to-end/test_e2e.py" in {f["path"] for f in document["findings"]}
        assert document["unchecked"]["files"] == []


@pytest.mark.parametrize("name", ["pyright", "ty"])
def test_typesheds_literal_preserving_overloads_are_not_findings(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`os.path.join(a: LiteralString, ...) -> LiteralString` stands beside a `str` overload:
    pyright's "no overloads" for `str | None` there is about None (borgmatic 2.1.10).  Python
    3.13's `warnings.deprecated(message: LiteralString)` has no `str` alternative: a finding."""
    _checker(name)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "paths.py").write_text(
        "import os\nfrom typing import Optional\nfrom warnings import deprecated\n\n"
        "def state(base: Optional[str]) -> str:\n"
        "    return os.path.join(base, 'checks')\n"
        "def parent(p: bytes) -> str:\n"
        "    return os.path.dirname(os.path.join(p, 'x'))\n"
        "def old(message: str) -> object:\n"
        "    return deprecated(message)\n"
    )
    status, document = _json(
        ["--checker", name, "--python-version", "3.13", "--show-other", str(tmp_path)],
        capsys,
        tmp_path / "cache",
    )
    assert [(f["line"], f["rule"], f["sink"]) for f in document["findings"]] == [
        (10, "LS001", "warnings.deprecated")
    ]
    assert status == EXIT_FINDINGS
    assert 6 in {o["line"] for o in document["other"]}


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_a_file_that_does_not_parse_is_reported_and_the_rest_checked(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Parsed while the checker runs where a syntax error does not stop it (pyright,
    basedpyright, ty, zuban), before it runs elsewhere (mypy stops, pyrefly stops checking)."""
    _checker(name)
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "good.py").write_text("import os\n\ndef f(u: str) -> None:\n    os.system(u)\n")
    status, out, _ = _run(["--checker", name, str(tmp_path)], capsys, tmp_path / "cache")
    assert status == EXIT_ERROR
    assert "broken.py:1: not checked: it does not parse: invalid syntax" in out
    assert "good.py:4:5: LS201" in out


def test_a_folder_without_python_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    status, out, err = _run([str(tmp_path / "empty")], capsys, tmp_path / "cache")
    assert status == EXIT_ERROR
    assert out == ""
    assert "no Python file to check in" in err


def test_a_target_outside_the_checkers_range(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _checker("mypy")
    (tmp_path / "a.py").write_text("x = 1\n")
    status, out, err = _run(
        ["--checker", "mypy", "--python-version", "3.8", str(tmp_path)], capsys, tmp_path / "c"
    )
    assert status == EXIT_ERROR
    assert out == ""
    assert err.strip().splitlines() == [
        "typing-literalstring: error: mypy checks Python 3.10 to 3.14, not 3.8: choose a "
        "--python-version in that range, or another --checker"
    ]


def test_ctrl_c_is_one_line_and_exit_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr("typing_literalstring.commands.check.run_check", interrupted)
    status, out, err = _run([str(tmp_path)], capsys, tmp_path / "cache")
    assert status == EXIT_INTERRUPTED
    assert (out, err) == ("", "typing-literalstring: interrupted\n")


def test_overload_errors_of_builtins_and_the_standard_library_are_not_revealed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """datasette 0.65.5 had "No overloads for" `getattr`, `iter` and `Decimal(...)`: the stock
    stdlib has no LiteralString sink, so asking pyright about them was a wasted run."""
    checker = _checker("pyright")
    (tmp_path / "m.py").write_text(
        "from decimal import Decimal\n\ndef f(x: object) -> None:\n"
        "    Decimal(x)\n    iter(x, 1, 2)\n    getattr(x, 1)\n"
    )
    runs: list[str] = []
    real_run = type(checker).run

    def counting(self: Checker, files: list[Path], **kwargs: Any) -> RunResult:  # noqa: ANN401
        runs.append(kwargs["workdir"].name)
        return real_run(self, files, **kwargs)

    monkeypatch.setattr(type(checker), "run", counting)
    result = run_check(checker, [tmp_path], cache_dir=tmp_path / "cache")
    assert result.findings == []
    assert len(result.other) >= 3
    assert runs == ["tightened"]


@pytest.mark.parametrize("name", ["pyright", "ty"])
def test_errors_that_do_not_say_they_are_ours_start_no_second_run(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each sink call's verdict is the checker's answer about its text, so no file is compared
    with a run on the untightened stubs any more.  ty's "No overload of function `run`
    matches arguments" never said whose the error was, and a `bytes` command is neither a str
    nor a literal: it is text no type proves literal (PEP 675 has no LiteralBytes), a finding.
    """
    checker = _checker(name)
    (tmp_path / "sink.py").write_text("import os\n\ndef f(u: str) -> None:\n    os.system(u)\n")
    (tmp_path / "shell.py").write_text(
        "import subprocess\n\ndef f(u: bytes) -> None:\n    subprocess.run(u, shell=True)\n"
    )
    for n in range(3):
        (tmp_path / f"plain{n}.py").write_text("def g(x: int) -> int:\n    return x\n")
    runs: list[int] = []
    real_run = type(checker).run

    def counting(self: Checker, files: list[Path], **kwargs: Any) -> RunResult:  # noqa: ANN401
        runs.append(len(files))
        return real_run(self, files, **kwargs)

    monkeypatch.setattr(type(checker), "run", counting)
    result = run_check(checker, [tmp_path], cache_dir=tmp_path / "cache")
    assert [(Path(f.path).name, f.rule.id) for f in result.findings] == [
        ("shell.py", "LS201"),
        ("sink.py", "LS201"),
    ]
    assert runs == [5]


@pytest.mark.parametrize(
    ("message", "about"),
    [
        (
            'Argument of type "str" cannot be assigned to parameter "sql" of type "LiteralString"',
            True,
        ),
        (
            "Argument to function `f` is incorrect: Expected `LiteralString | Query`, found `str`",
            True,
        ),
        ('Incompatible return value type (got "str", expected "LiteralString")', True),
        ('Type "LiteralString" is not assignable to declared type "int"', False),  # actual side
        # zuban's choice of str.join's LiteralString overload: the str overload takes any str.
        (
            'Argument 1 to "join" of "str" has incompatible type "list[str]"; expected '
            '"Iterable[LiteralString]"',
            False,
        ),
    ],
)
def test_which_messages_say_a_literal_string_was_refused(message: str, about: bool) -> None:
    diagnostic = Diagnostic("x.py", 1, 1, "error", message)
    assert is_about_literal_string(diagnostic, "pyright") is about


@pytest.mark.parametrize(
    ("code", "message", "module"),
    [
        ("reportMissingImports", 'Import "yaml" could not be resolved', "yaml"),
        ("import-not-found", "Cannot resolve imported module `yaml`", "yaml"),
        (
            "import-not-found",
            'Cannot find implementation or library stub for module named "yaml"',
            "yaml",
        ),
        ("missing-import", "Cannot find module `yaml`", "yaml"),
        (  # mypy, borgmatic 2.1.10: the module is installed but has no types
            "import-untyped",
            'Library stubs not installed for "binaryornot"',
            "binaryornot",
        ),
        (  # mypy, datasette 0.65.5: installed without py.typed
            "import-untyped",
            'Skipping analyzing "asgi_csrf": module is installed, but missing library stubs '
            "or py.typed marker",
            "asgi_csrf",
        ),
    ],
)
def test_unresolved_imports_are_named_by_their_module(code: str, message: str, module: str) -> None:
    diagnostic = Diagnostic("app.py", 1, 1, "error", message, code)
    assert unresolved_module(diagnostic) == module


def test_a_package_importing_from_its_own_init_is_checked_by_mypy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """litecli 1.17.1 and pgcli 4.7.1: `from .__init__ import __version__` stops mypy (plain
    `mypy .` too) with "Source file found twice under different module names"; each check of
    them with mypy exited 2.  mypy now reads that import as `from .`, nothing else moved."""
    _checker("mypy")
    monkeypatch.chdir(tmp_path)
    root = _tree(
        tmp_path / "proj",
        {
            "pyproject.toml": "",
            "app/__init__.py": "__version__ = '1'\n",
            "app/main.py": "import sqlite3\nfrom .__init__ import __version__\n"
            "from app.__init__ import __version__ as v\n\n\n"
            "def f(user: str) -> None:\n"
            "    sqlite3.connect(':memory:').execute(f'SELECT {user} {__version__} {v}')\n",
        },
    )
    status, document = _json(["--checker", "mypy", str(root)], capsys, tmp_path / "cache")
    assert status == EXIT_FINDINGS
    assert _places(document) == {("proj/app/main.py", 7, "LS101")}


def test_when_mypy_stops_the_message_names_the_error_that_stopped_it() -> None:
    """An error that stops mypy comes after the ordinary errors it found until then."""
    output = "\n".join(
        json.dumps({"file": f, "message": m, "severity": "error"})
        for f, m in [
            ("app/a.py", 'Cannot find implementation or library stub for module named "x"'),
            ("app/__init__.py", "Source file found twice under different module names"),
        ]
    )
    said = CHECKERS["mypy+plugin"].failure(output)
    assert said == "app/__init__.py: Source file found twice under different module names"


def test_mypy_keeps_its_incremental_cache_between_checks_and_it_is_never_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second check of an unchanged project costs a warm mypy run (12.8 s -> 2.4 s on
    sqlite-utils 3.38); findings stay exact when a file changes or comes back."""
    _checker("mypy")
    monkeypatch.chdir(tmp_path)
    shell = "import os\n\n\ndef f(u: str) -> None:\n    os.system(u)\n"
    root = _tree(tmp_path / "proj", {"pyproject.toml": "", "app.py": shell, "b.py": "x = 1\n"})
    cache = tmp_path / "cache"
    args = ["--checker", "mypy", str(root)]
    first = _json(args, capsys, cache)[1]
    assert _places(first) == {("proj/app.py", 5, "LS201")}
    (kept,) = (cache / "incremental").iterdir()
    # mypy 2 keeps its cache in SQLite files (cache.N.db) under a folder per target version.
    assert any(f.stat().st_size for f in kept.rglob("*.db")), "mypy wrote no cache there"
    assert _places(_json(args, capsys, cache)[1]) == {("proj/app.py", 5, "LS201")}
    (root / "b.py").write_text(
        "import subprocess\n\ndef g(c: str) -> None:\n    subprocess.run(c, shell=True)\n"
    )
    assert _places(_json(args, capsys, cache)[1]) == {
        ("proj/app.py", 5, "LS201"),
        ("proj/b.py", 4, "LS201"),
    }
    (root / "b.py").write_text("x = 1\n")
    assert _places(_json(args, capsys, cache)[1]) == {("proj/app.py", 5, "LS201")}


def test_a_module_the_mypy_plugin_could_not_check_fails_the_run(tmp_path: Path) -> None:
    """Its findings are unknown: a crash is never a pass (exit 2 through the CLI)."""
    failure = Diagnostic(
        str(tmp_path / "m.py"),
        1,
        1,
        "error",
        "typing_literalstring.mypy could not check this module (RecursionError: ...)",
        MypyPlugin.failure_code,
    )
    with pytest.raises(CheckerFailedError, match=r"mypy\+plugin could not check m\.py"):
        stub_errors.refuse_plugin_failures(CHECKERS["mypy+plugin"], [failure], tmp_path)
    stub_errors.refuse_plugin_failures(CHECKERS["pyright"], [failure], tmp_path)  # not mypy


def test_relative_imports_in_a_package_init_start_from_the_package() -> None:
    """`from .reports import run_report` in myapp/__init__.py names myapp.reports.run_report;
    in myapp/main.py too (its package is myapp)."""
    from typing_literalstring.analysis.callees import imported_names

    tree = ast.parse("from .reports import run_report\n")
    assert imported_names(tree, "myapp", is_package=True)["run_report"] == (
        "myapp.reports.run_report"
    )
    assert imported_names(tree, "myapp.main")["run_report"] == "myapp.reports.run_report"


def test_modules_installed_without_types_are_told_apart_from_missing_ones(tmp_path: Path) -> None:
    """mypy's import-untyped module is installed: installing the dependencies changes nothing
    there, its values are Any, and `--report-any` shows where they reach a sink."""
    result = CheckResult("mypy+plugin", "2.4.1", "default", tmp_path)
    result.unresolved = ["yaml", "asgi_csrf"]
    result.untyped = ["asgi_csrf"]
    notice = notices.unresolved_notice(result)
    assert notice is not None
    missing, untyped = notice.split(" 1 imported module installed without types ")
    assert "(yaml)" in missing
    assert "Install the project's dependencies" in missing
    assert untyped.startswith("(asgi_csrf)")
    assert "--report-any" in untyped
    result.unresolved = ["asgi_csrf"]
    notice = notices.unresolved_notice(result)
    assert notice is not None
    assert "Install the project's dependencies" not in notice
    diagnostic = Diagnostic(
        "app.py",
        1,
        1,
        "error",
        'Skipping analyzing "asgi_csrf": module is installed, but missing library stubs or '
        "py.typed marker",
        "import-untyped",
    )
    assert is_untyped_module(diagnostic)
    # A stub package exists for this one (mypy names it), but the module is installed too.
    assert is_untyped_module(replace(diagnostic, message='Library stubs not installed for "yaml"'))
    assert not is_untyped_module(replace(diagnostic, code="import-not-found"))
