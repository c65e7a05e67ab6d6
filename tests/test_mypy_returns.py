"""The plugin's return types of the project's unannotated functions (setting
``infer_return_types``, typing_literalstring/mypy/returns.py), under real mypy runs.

mypy types a call of an unannotated function ``Any``, so a sink reached through one was never
judged under mypy where pyright infers the type and judges it (issue 45).  Each test shows an
error, or its absence, that mypy without the setting does not give.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

INFER = (
    "[mypy]\nplugins = typing_literalstring.mypy\n\n"
    "[typing_literalstring]\ninfer_return_types = true\n"
)
DEFAULT = "[mypy]\nplugins = typing_literalstring.mypy\n"

SINK = """\
from typing_extensions import LiteralString


class Connection:
    def execute(self, sql: LiteralString) -> None: ...


def connect(path: str) -> Connection: ...


def run(command: LiteralString, shell: bool = False) -> None: ...
"""

# The shapes of the untyped handlers of issue 45: a connection from a helper, request values
# through helpers, a command built by a helper from its parameter, a connection kept on self.
HELPERS = """\
import sys

from lib import connect


def get_db():
    return connect("app.db")


def get_cursor():
    db = get_db()
    return db


def arg(name, default=""):
    return sys.argv[1] if len(sys.argv) > 1 else default


def table():
    if len(sys.argv) > 2:
        return "events"
    return "users"


def ping_command(host):
    return "ping -c 1 " + host


class Store:
    def __init__(self, path):
        self.conn = connect(path)

    def connection(self):
        return self.conn

    @classmethod
    def open(cls):
        return cls("app.db")

    @staticmethod
    def default_table():
        return "notes"
"""

MAIN = """\
from helpers import Store, arg, get_cursor, get_db, ping_command, table
from lib import run


def handler():
    db = get_db()
    db.execute("SELECT * FROM t WHERE a = '" + arg("q") + "'")  # E
    db.execute("SELECT * FROM " + table())
    get_cursor().execute(f"SELECT {arg('col')} FROM t")  # E
    run(ping_command(arg("host")), shell=True)  # E
    run(ping_command("localhost"), shell=True)
    store = Store.open()
    store.conn.execute("DELETE FROM t WHERE a = " + arg("id"))  # E
    store.connection().execute("SELECT 1")
    store.connection().execute("SELECT * FROM " + Store.default_table())
    store.connection().execute("SELECT " + arg("n", 5))
"""


def _mypy(
    work: Path, files: list[str], config: str = INFER, cache: str = "cache", *args: str
) -> subprocess.CompletedProcess[str]:
    ini = work / f"{cache}.ini"
    ini.write_text(config, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mypy", f"--config-file={ini}", f"--cache-dir={work / cache}",
         "--check-untyped-defs", "--show-error-codes", "--no-error-summary", "--no-pretty",
         *args, *files],
        cwd=work, capture_output=True, text=True, check=False,
    )  # fmt: skip


def _errors(proc: subprocess.CompletedProcess[str]) -> list[tuple[str, int]]:
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return [
        (line.split(":")[0], int(line.split(":")[1]))
        for line in proc.stdout.splitlines()
        if ": error:" in line
    ]


def _marked(name: str, text: str) -> list[tuple[str, int]]:
    return [(name, n) for n, line in enumerate(text.splitlines(), 1) if line.endswith("# E")]


def _project(work: Path, main: str = MAIN) -> list[str]:
    for name, text in (("lib.pyi", SINK), ("helpers.py", HELPERS), ("main.py", main)):
        (work / name).write_text(text, encoding="utf-8")
    return ["main.py", "helpers.py", "lib.pyi"]


def test_calls_of_unannotated_functions_get_the_type_their_returns_have(tmp_path: Path) -> None:
    """Each marked call is refused, each other is proven: the connection a helper returns,
    a request value read by a helper (``default=""`` taken as str, as pyright takes it),
    a helper's command built from the caller's argument (str, then a literal), a connection
    kept on self, a class- and a static method; ``arg("n", 5)`` passes an int where the
    inference took ``default`` as str: Any, as mypy says."""
    files = _project(tmp_path)
    assert _errors(_mypy(tmp_path, files)) == _marked("main.py", MAIN)


def test_the_setting_is_off_by_default(tmp_path: Path) -> None:
    """A team's own mypy with the plugin sees Any, as mypy alone: the inference changes types
    that have nothing to do with LiteralString, so only ``check`` turns it on."""
    files = _project(tmp_path)
    assert _errors(_mypy(tmp_path, files, DEFAULT, "default")) == []


def test_the_inferred_types_survive_the_incremental_cache(tmp_path: Path) -> None:
    """mypy caches no function bodies: after an edit of main.py alone, helpers.py comes from
    the cache and its inferred signatures from its symbol table, with the same verdicts; an
    edit of a helper's return changes its interface and rechecks the unchanged importer."""
    files = _project(tmp_path)
    expected = _marked("main.py", MAIN)
    assert _errors(_mypy(tmp_path, files)) == expected
    (tmp_path / "main.py").write_text(MAIN + "# edited\n", encoding="utf-8")
    edited = _mypy(tmp_path, files, INFER, "cache", "--verbose")
    assert "Metadata fresh for helpers: file helpers.py" in edited.stderr
    assert _errors(edited) == expected
    assert _errors(_mypy(tmp_path, files)) == expected  # warm, nothing changed
    (tmp_path / "helpers.py").write_text(
        HELPERS.replace('return "events"', "return sys.argv[2]"), encoding="utf-8"
    )
    assert _errors(_mypy(tmp_path, files)) == sorted([*expected, ("main.py", 8)])


NOT_INFERRED = """\
import sys

from lib import connect


def maybe():
    if sys.argv:
        return connect("a")


def looped():
    for name in sys.argv:
        db = connect(name)
    return db


def generator():
    yield connect("a")


def recursive(n):
    if n:
        return recursive(n - 1)
    return connect("a")


def nested():
    def inner():
        return connect("a")
    return inner()


def closure():
    db = connect("a")
    def inner():
        return db
    return inner()


def main():
    maybe().execute(sys.argv[1])
    looped().execute(sys.argv[1])
    recursive(3).execute(sys.argv[1])
    closure().execute(sys.argv[1])
"""


def test_what_is_not_inferred_stays_any(tmp_path: Path) -> None:
    """Strict: a function that may fall off its end, a local bound by a ``for``, a recursive
    return, a closure's name: Any, as mypy says, never a guess (no error at all)."""
    (tmp_path / "lib.pyi").write_text(SINK, encoding="utf-8")
    (tmp_path / "main.py").write_text(NOT_INFERRED, encoding="utf-8")
    assert _errors(_mypy(tmp_path, ["main.py", "lib.pyi"])) == []


def test_an_argument_of_type_any_keeps_the_call_any(tmp_path: Path) -> None:
    """A helper's result inferred for a `str` argument is not claimed for an argument that may
    be anything: ``ping_command(json.loads(...))`` stays Any, as pyright's call-site inference
    makes it Unknown."""
    main = MAIN.replace(
        'run(ping_command("localhost"), shell=True)',
        "run(ping_command(json.loads(arg('x'))), shell=True)",
    )
    main = "import json\n" + main
    files = _project(tmp_path, main)
    assert _errors(_mypy(tmp_path, files)) == _marked("main.py", main)
