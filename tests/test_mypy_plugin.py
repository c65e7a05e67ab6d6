"""The mypy plugin (typing_literalstring.mypy) under real mypy runs.

Each test shows the plugin at work by an error that plain mypy (no plugin) does not report, so
none of them can pass by mypy staying silent.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

import typing_literalstring.mypy as mypy_plugin
from typing_literalstring.checkers import MypyPlugin

REPO = Path(__file__).resolve().parent.parent
PLUGIN_CONFIG = "[mypy]\nplugins = typing_literalstring.mypy\n"
PLAIN_CONFIG = "[mypy]\n"

SINK = """\
from typing_extensions import LiteralString


class Cursor:
    def execute(self, sql: LiteralString) -> None: ...


def sink(s: LiteralString) -> None: ...
"""


def _mypy(
    work: Path,
    files: list[str],
    *args: str,
    config: str = PLUGIN_CONFIG,
    cache: str = "cache",
) -> subprocess.CompletedProcess[str]:
    ini = work / "mypy.ini"
    ini.write_text(config, encoding="utf-8")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            f"--config-file={ini}",
            f"--cache-dir={work / cache}",
            "--python-version=3.12",
            "--show-error-codes",
            "--no-error-summary",
            "--no-pretty",
            *args,
            *files,
        ],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )


def _errors(proc: subprocess.CompletedProcess[str]) -> list[str]:
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return [line for line in proc.stdout.splitlines() if ": error:" in line]


def _assert_errors_on_marked_lines(work: Path, source: str) -> None:
    """mypy with the plugin reports a literal-string error on exactly the `# E` lines."""
    main = _write(work, "main.py", source)
    marked = [n for n, line in enumerate(source.splitlines(), 1) if line.endswith("# E")]
    errors = _errors(_mypy(work, [main]))
    assert [int(e.split(":")[1]) for e in errors] == marked
    assert all("[literal-string]" in e for e in errors)


def _write(work: Path, name: str, text: str) -> str:
    (work / name).write_text(text, encoding="utf-8")
    return name


def test_errors_have_their_own_code_and_read_like_mypys(tmp_path: Path) -> None:
    _write(tmp_path, "lib.py", SINK)
    main = _write(
        tmp_path,
        "main.py",
        "from lib import Cursor, sink\n"
        "def f(cur: Cursor, user: str) -> None:\n"
        "    cur.execute(user)\n"
        '    sink("SELECT 1")\n'
        '    sink("SELECT " + user)\n',
    )
    assert _errors(_mypy(tmp_path, [main])) == [
        'main.py:3: error: Argument 1 to "execute" of "Cursor" has incompatible type "str"; '
        'expected "LiteralString"  [literal-string]',
        'main.py:5: error: Argument 1 to "sink" has incompatible type "str"; '
        'expected "LiteralString"  [literal-string]',
    ]
    assert _errors(_mypy(tmp_path, [main], config=PLAIN_CONFIG, cache="plain")) == []


def test_type_ignore_warn_unused_ignores_and_disable_error_code(tmp_path: Path) -> None:
    _write(tmp_path, "lib.py", SINK)
    main = _write(
        tmp_path,
        "main.py",
        "from lib import sink\n"
        "def f(user: str) -> None:\n"
        "    sink(user)  # type: ignore[literal-string]\n"
        '    sink("SELECT 1")  # type: ignore[literal-string]\n'
        "    sink(user)\n"
        "    x: int = user\n",
    )
    errors = _errors(_mypy(tmp_path, [main], "--warn-unused-ignores"))
    assert errors == [
        'main.py:4: error: Unused "type: ignore" comment  [unused-ignore]',
        'main.py:5: error: Argument 1 to "sink" has incompatible type "str"; '
        'expected "LiteralString"  [literal-string]',
        'main.py:6: error: Incompatible types in assignment (expression has type "str", '
        'variable has type "int")  [assignment]',
    ]
    # Disabled, the code reports nothing, and mypy's own errors stay.
    disabled = _errors(
        _mypy(tmp_path, [main], "--disable-error-code", "literal-string", cache="disabled")
    )
    assert [e.split(": error: ")[0] for e in disabled] == ["main.py:6"]


def test_incremental_cache_replays_errors_and_sees_a_changed_dependency(tmp_path: Path) -> None:
    lib = _write(tmp_path, "lib.py", SINK.replace("def sink(s: LiteralString)", "def sink(s: str)"))
    main = _write(
        tmp_path,
        "main.py",
        "from lib import Cursor, sink\n"
        "def f(cur: Cursor, user: str) -> None:\n"
        "    cur.execute(user)\n"
        "    sink(user)\n",
    )
    first = _errors(_mypy(tmp_path, [main, lib]))
    assert [e.split(":")[1] for e in first] == ["3"]
    assert (tmp_path / "cache").is_dir()
    # Nothing changed: mypy takes both modules from its cache and replays the same errors.
    again = _mypy(tmp_path, [main, lib], "--verbose")
    assert _errors(again) == first
    assert "Metadata fresh for main: file main.py" in again.stderr
    # The dependency now declares LiteralString: main.py, unchanged, is checked again.
    _write(tmp_path, "lib.py", SINK)
    changed = _errors(_mypy(tmp_path, [main, lib]))
    assert [e.split(":")[1] for e in changed] == ["3", "4"]
    # ...and back: the error goes away again.
    _write(tmp_path, "lib.py", SINK.replace("def sink(s: LiteralString)", "def sink(s: str)"))
    assert _errors(_mypy(tmp_path, [main, lib])) == first


def test_markers_survive_the_cache_of_an_unchanged_dependency(tmp_path: Path) -> None:
    """lib.py comes from the cache on the second run; its LiteralString must still count."""
    lib = _write(tmp_path, "lib.py", SINK)
    _write(tmp_path, "main.py", "from lib import sink\n")
    _errors(_mypy(tmp_path, ["main.py", lib]))
    _write(tmp_path, "main.py", "from lib import sink\ndef f(u: str) -> None:\n    sink(u)\n")
    proc = _mypy(tmp_path, ["main.py", lib], "--verbose")
    assert "Metadata fresh for lib: file lib.py" in proc.stderr
    assert [e.split(":")[1] for e in _errors(proc)] == ["3"]


def test_ordinary_code_gets_exactly_the_same_errors(tmp_path: Path) -> None:
    """This repository's own modules (plenty of str, no LiteralString): with and without the
    plugin, mypy --strict says the same, apart from one planted violation."""
    package = REPO / "typing_literalstring"
    # The tool's modules, in every folder; the plugin's own aside (mypy internals).
    files = sorted(
        str(p) for p in package.rglob("*.py") if p.relative_to(package).parts[0] != "mypy"
    )
    assert len(files) > 40
    canary = _write(tmp_path, "canary.py", SINK + "def f(u: str) -> None:\n    sink(u)\n")
    config = "[mypy]\nstrict = True\nfollow_imports = silent\n"
    args = ("--no-incremental", canary, *files)
    plain = _mypy(tmp_path, [], *args, config=config)
    plugged = _mypy(tmp_path, [], *args, config=config + "plugins = typing_literalstring.mypy\n")
    assert plain.returncode in (0, 1), plain.stdout + plain.stderr
    assert plugged.returncode in (0, 1), plugged.stdout + plugged.stderr
    added = sorted(set(plugged.stdout.splitlines()) - set(plain.stdout.splitlines()))
    removed = sorted(set(plain.stdout.splitlines()) - set(plugged.stdout.splitlines()))
    assert removed == []
    assert added == [
        'canary.py:10: error: Argument 1 to "sink" has incompatible type "str"; '
        'expected "LiteralString"  [literal-string]'
    ]


def test_a_supported_mypy_gets_the_plugin() -> None:
    from mypy.plugin import Plugin
    from mypy.version import __version__

    assert mypy_plugin.unsupported(__version__) is None
    assert issubclass(mypy_plugin.plugin(__version__), Plugin)


@pytest.mark.parametrize("version", ["2.3.1", "2.5.0", "3.0.0+dev", "nonsense"])
def test_an_unsupported_mypy_is_refused_clearly(
    version: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        mypy_plugin.plugin(version)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"supports mypy {mypy_plugin.SUPPORTED_MYPY}, not mypy {version}" in err
    assert "LiteralString would not be checked" in err


def test_mypy_stops_with_the_message_when_the_version_is_unsupported(tmp_path: Path) -> None:
    """End to end: mypy hands the plugin a version outside the range (a shim pretends)."""
    _write(tmp_path, "lib.py", SINK)
    main = _write(tmp_path, "main.py", "from lib import sink\nsink(str(1))\n")
    _write(
        tmp_path,
        "shim.py",
        "from typing_literalstring.mypy import plugin as real\n"
        "def plugin(version):\n"
        '    return real("2.5.0")\n',
    )
    proc = _mypy(tmp_path, [main], config="[mypy]\nplugins = shim.py\n")
    assert proc.returncode == 2
    assert "supports mypy >=2.4,<2.5, not mypy 2.5.0" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    # The same run with the real version checks the file.
    proc = _mypy(tmp_path, [main], cache="ok")
    assert len(_errors(proc)) == 1


def test_missing_mypy_internals_are_refused_clearly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mypy whose internals moved (simulated: checker_state cannot be imported)."""
    from mypy.version import __version__

    # mypy is compiled (mypyc): the first import of its modules in a process registers them
    # all in sys.modules, which would overwrite the None set below.  Load them first, so the
    # test does not depend on whether an earlier test in this process did.
    importlib.import_module("typing_literalstring.mypy.plugin_type")

    for name in list(sys.modules):
        if name.startswith("typing_literalstring.mypy."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "mypy.checker_state", None)
    with pytest.raises(SystemExit) as exited:
        mypy_plugin.plugin(__version__)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"cannot use mypy {__version__}" in err
    assert f"supports mypy {mypy_plugin.SUPPORTED_MYPY}" in err


def test_the_supported_range_matches_the_mypy_extra() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert f'mypy = ["mypy{mypy_plugin.SUPPORTED_MYPY}"]' in text


STRETCH = """\
import json
import subprocess
from typing import Any
from typing_extensions import LiteralString
def sink(s: LiteralString) -> None: ...
def f(user: str, raw: Any, name: LiteralString) -> None:
    sink(raw)
    sink(json.loads(user))
    subprocess.run(["sh", "-c", f"echo {user}"])
    subprocess.run(["bash", "-lc", "echo " + name])
    subprocess.run(["sh", "-c", 'echo "$1"', "sh", user])
    script = "ls " + user
    subprocess.run(["sh", "-c", script])
    subprocess.run(["ls", user])
"""


@pytest.mark.parametrize(
    ("name", "config", "lines"),
    [
        ("mypy.ini", PLUGIN_CONFIG, []),
        ("mypy.ini", PLUGIN_CONFIG + "[typing_literalstring]\ndisallow_any = True\n", ["7", "8"]),
        ("mypy.ini", PLUGIN_CONFIG + "[typing_literalstring]\nshell_argv = true\n", ["9", "13"]),
        (
            "pyproject.toml",
            '[tool.mypy]\nplugins = ["typing_literalstring.mypy"]\n'
            "[tool.typing_literalstring]\ndisallow_any = true\nshell_argv = true\n",
            ["7", "8", "9", "13"],
        ),
    ],
)
def test_opt_in_checks_any_and_shells_in_argument_lists(
    tmp_path: Path, name: str, config: str, lines: list[str]
) -> None:
    code = _write(tmp_path, "code.py", STRETCH)
    config_file = _write(tmp_path, name, config)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            f"--config-file={config_file}",
            "--cache-dir=shared-cache",  # one cache: a changed setting must still count
            "--no-error-summary",
            code,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    errors = _errors(proc)
    assert [e.split(":")[1] for e in errors] == lines
    assert all(e.endswith("[literal-string]") for e in errors)
    for error in errors:
        expected = "Shell script in an argument list" if int(error.split(":")[1]) >= 9 else "Any"
        assert expected in error


def test_a_settings_cache_is_invalidated_when_a_setting_changes(tmp_path: Path) -> None:
    code = _write(tmp_path, "code.py", STRETCH)
    assert _errors(_mypy(tmp_path, [code])) == []
    on = PLUGIN_CONFIG + "[typing_literalstring]\nshell_argv = true\n"
    assert len(_errors(_mypy(tmp_path, [code], config=on))) == 2
    assert _errors(_mypy(tmp_path, [code])) == []


def test_an_unknown_setting_is_refused(tmp_path: Path) -> None:
    code = _write(tmp_path, "code.py", STRETCH)
    proc = _mypy(tmp_path, [code], config=PLUGIN_CONFIG + "[typing_literalstring]\nshell = 1\n")
    assert proc.returncode == 2
    assert "unknown setting 'shell' for typing_literalstring.mypy" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_overloaded_sink_reports_literal_string_not_a_missing_overload(tmp_path: Path) -> None:
    """The LiteralString item refuses a str, and no other item fits: mypy would say "No overload
    variant matches"; the plugin says which argument is not literal, with its own code."""
    _write(
        tmp_path,
        "lib.py",
        "from typing import overload\n"
        "from typing_extensions import LiteralString\n"
        "@overload\n"
        "def info(msg: object) -> None: ...\n"
        "@overload\n"
        "def info(msg: LiteralString, arg: object, /, *args: object) -> None: ...\n"
        "def info(msg: object, *args: object) -> None: ...\n",
    )
    main = _write(
        tmp_path,
        "main.py",
        "from lib import info\n"
        "def f(user: str, error: Exception) -> None:\n"
        '    info("%s", user)\n'
        "    info(user)\n"
        "    info(user, 1)\n"
        "    info(error, 1)\n"
        "    info(user, 2)  # type: ignore[literal-string]\n",
    )
    errors = _errors(_mypy(tmp_path, [main], "--warn-unused-ignores"))
    assert errors[0] == (
        'main.py:5: error: Argument 1 to "info" has incompatible type "str"; '
        'expected "LiteralString"  [literal-string]'
    )
    # An argument that is no string at all stays mypy's own error.
    assert errors[1].startswith('main.py:6: error: No overload variant of "info" matches')
    assert len(errors) == 2


def test_index_assignment_typed_dict_and_override(tmp_path: Path) -> None:
    main = _write(
        tmp_path,
        "main.py",
        "from typing import Dict, TypedDict\n"
        "from typing_extensions import LiteralString\n"
        "class Query(TypedDict):\n"
        "    sql: LiteralString\n"
        "class Base:\n"
        '    def run(self, sql: str) -> LiteralString: return "x"\n'
        "class Child(Base):\n"
        "    def run(self, sql: LiteralString) -> str: return sql\n"
        "def f(user: str, d: Dict[str, LiteralString]) -> None:\n"
        '    d["k"] = user\n'
        '    d[user] = "SELECT 1"\n'
        '    q: Query = {"sql": user}\n'
        '    ok: Query = {"sql": "SELECT 1"}\n',
    )
    assert _errors(_mypy(tmp_path, [main])) == [
        'main.py:8: error: Return type "str" of "run" incompatible with return type '
        '"LiteralString" in supertype "Base"  [literal-string]',
        'main.py:8: error: Argument 1 of "run" is incompatible with supertype "Base"; supertype '
        'defines the argument type as "str"  [literal-string]',
        'main.py:10: error: Incompatible types in assignment (expression has type "str", target '
        'has type "LiteralString")  [literal-string]',
        'main.py:12: error: Incompatible types (expression has type "str", TypedDict item "sql" '
        'has type "LiteralString")  [literal-string]',
    ]
    assert _errors(_mypy(tmp_path, [main], config=PLAIN_CONFIG, cache="plain")) == []


def test_assert_type_of_literalstring_is_checked(tmp_path: Path) -> None:
    """mypy reads LiteralString as str, so on its own assert_type(user, LiteralString) passes."""
    name = _write(
        tmp_path,
        "asserts.py",
        "from typing_extensions import LiteralString, assert_type\n"
        "def f(user: str, lit: LiteralString) -> None:\n"
        "    assert_type(user, LiteralString)\n"
        "    assert_type(lit.upper(), LiteralString)\n"
        "    assert_type(lit.center(20, '*'), LiteralString)\n"
        "    assert_type(user.upper(), LiteralString)\n"
        "    assert_type(lit, str)\n",
    )
    assert _errors(_mypy(tmp_path, [name], config=PLAIN_CONFIG, cache="plain")) == []
    errors = _errors(_mypy(tmp_path, [name]))
    assert errors == [
        f'{name}:3: error: Expression is of type "str", not "LiteralString"  [literal-string]',
        f'{name}:6: error: Expression is of type "str", not "LiteralString"  [literal-string]',
    ]


# The lowest and the highest release of the supported range (SUPPORTED_MYPY), each installed in
# a fresh venv beside the built wheel: the plugin must work on both ends, not only on the mypy
# the test environment happens to have.
RANGE_ENDS = ["2.4.0", "2.4.1"]


@pytest.mark.parametrize("version", RANGE_ENDS)
def test_the_plugin_on_each_end_of_the_supported_range(
    version: str, dists: dict[str, Path], tmp_path: Path
) -> None:
    assert not mypy_plugin.unsupported(version)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            f"mypy=={version}",
            str(dists["wheel"]),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if install.returncode != 0:
        pytest.skip(f"mypy {version} could not be installed here: {install.stderr[-500:]}")
    name = _write(tmp_path, "sample.py", SINK + "def f(user: str) -> None:\n    sink(user)\n")
    (tmp_path / "mypy.ini").write_text(PLUGIN_CONFIG, encoding="utf-8")
    proc = subprocess.run(
        [
            str(python),
            "-m",
            "mypy",
            "--config-file=mypy.ini",
            "--no-incremental",
            "--show-error-codes",
            "--no-error-summary",
            name,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.stdout.splitlines() == [
        f'{name}:10: error: Argument 1 to "sink" has incompatible type "str"; expected '
        '"LiteralString"  [literal-string]'
    ], proc.stdout + proc.stderr


def test_assigning_a_module_attribute_is_checked_without_crashing(tmp_path: Path) -> None:
    """A module-level variable has mypy's placeholder class info, which has no name (this
    stopped the plugin on invoke and datasette, found by the benchmark on their sdists)."""
    name = _write(
        tmp_path,
        "module_attr.py",
        SINK + "import sys\n\ndef f(user: str) -> None:\n"
        "    sys.dont_write_bytecode = True\n    sink(user)\n",
    )
    errors = _errors(_mypy(tmp_path, [name]))
    assert errors == [
        f'{name}:13: error: Argument 1 to "sink" has incompatible type "str"; expected '
        '"LiteralString"  [literal-string]'
    ]


def test_a_recursive_alias_is_checked_not_dropped(tmp_path: Path) -> None:
    """`Key = Union[type, tuple["Key", ...]]` as an attribute's type sent the plugin's type
    walk into a RecursionError, and the module's LiteralString errors were lost."""
    main = _write(
        tmp_path,
        "main.py",
        "from typing import Tuple, Union\n"
        "from typing_extensions import LiteralString\n"
        'Key = Union[type, Tuple["Key", ...]]\n'
        "class C:\n"
        "    key: Key\n"
        "    def set(self, k: Key) -> None:\n"
        "        self.key = k\n"
        "def run(q: LiteralString) -> None: ...\n"
        "def f(user: str) -> None:\n"
        "    run(user)\n",
    )
    assert _errors(_mypy(tmp_path, [main])) == [
        'main.py:10: error: Argument 1 to "run" has incompatible type "str"; expected '
        '"LiteralString"  [literal-string]'
    ]


def test_a_failure_of_the_plugin_is_an_error_of_its_own_code(tmp_path: Path) -> None:
    """Never a module skipped in silence, nor one that `# type: ignore[literal-string]` hides."""
    (tmp_path / "failing_plugin.py").write_text(
        "import typing_literalstring.mypy.checks as checks\n"
        "from typing_literalstring.mypy import plugin\n\n"
        "def _fail(self):\n"
        "    raise ValueError('simulated')\n\n"
        "checks.ModuleCheck.run = _fail\n",
        encoding="utf-8",
    )
    main = _write(
        tmp_path,
        "main.py",
        "from typing_extensions import LiteralString  # type: ignore[literal-string]\n"
        "def sink(s: LiteralString) -> None: ...\n",
    )
    proc = _mypy(tmp_path, [main], config=f"[mypy]\nplugins = {tmp_path / 'failing_plugin.py'}\n")
    assert proc.returncode == 1
    assert _errors(proc) == [
        "main.py:1: error: typing_literalstring.mypy could not check this module (ValueError: "
        "simulated); its LiteralString errors are unknown: please report this  "
        f"[{MypyPlugin.failure_code}]"  # the code that `check` fails the run on
    ]


def test_dmypy_is_refused_with_a_message(tmp_path: Path) -> None:
    """Under dmypy a change in another module made the plugin's errors vanish, unsaid."""
    main = _write(
        tmp_path,
        "main.py",
        "from typing_extensions import LiteralString\n"
        "def sink(s: LiteralString) -> None: ...\n"
        "def f(user: str) -> None:\n"
        "    sink(user)\n",
    )
    (tmp_path / "mypy.ini").write_text(PLUGIN_CONFIG, encoding="utf-8")
    status = tmp_path / "dmypy.json"
    command = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(status)]
    try:
        proc = subprocess.run(
            [*command, "run", "--timeout", "60", "--", "--config-file=mypy.ini", main],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        subprocess.run([*command, "kill"], cwd=tmp_path, capture_output=True, check=False)
    assert proc.returncode != 0
    assert "typing_literalstring.mypy does not run under dmypy" in proc.stdout + proc.stderr


PSYCOPG_LIKE = """\
from typing import Any, Iterable, Union, overload

from typing_extensions import LiteralString


class Composable: ...


class Composed(Composable): ...


class SQL(Composable):
    def __init__(self, obj: LiteralString) -> None: ...
    def format(self, *args: Composable) -> Composed: ...
    def join(self, seq: Iterable[Composable]) -> Composed: ...


class Identifier(Composable):
    def __init__(self, *names: str) -> None: ...


class Template: ...


Query = Union[LiteralString, bytes, SQL, Composed]


class Cursor:
    @overload
    def execute(self, query: Query, params: Any = ...) -> "Cursor": ...
    @overload
    def execute(self, query: Template) -> "Cursor": ...
"""


def test_overloads_with_a_literal_string_union_take_what_the_union_takes(tmp_path: Path) -> None:
    """psycopg 3's `execute(query: LiteralString | bytes | SQL | Composed, ...)` overload:
    the arguments below were judged before mypy inferred them, and 7 of 9 correct lines got
    "No overload variant ... query: Never"."""
    _write(tmp_path, "pglike.pyi", PSYCOPG_LIKE)
    main = _write(
        tmp_path,
        "main.py",
        "from typing import Final\n"
        "from typing_extensions import LiteralString\n"
        "from pglike import SQL, Cursor, Identifier\n"
        'TABLE: Final = "users"\n'
        'def text() -> LiteralString: return "SELECT 1"\n'
        "class Q:\n"
        '    ALL: LiteralString = "SELECT * FROM users"\n'
        "    @property\n"
        '    def one(self) -> LiteralString: return "SELECT 1"\n'
        "def good(cur: Cursor, col: str, q: Q) -> None:\n"
        '    cur.execute(SQL("SELECT {} FROM t").format(Identifier(col)))\n'
        '    cur.execute(SQL(", ").join([Identifier(col), Identifier("b")]))\n'
        "    cur.execute(text())\n"
        '    cur.execute(b"SELECT 1")\n'
        "    cur.execute(q.ALL)\n"
        "    cur.execute(q.one)\n"
        '    cur.execute(f"SELECT * FROM {TABLE}")\n'
        "def bad(cur: Cursor, col: str) -> None:\n"
        '    cur.execute(f"SELECT {col} FROM t")\n'
        '    cur.execute("SELECT " + col)\n',
    )
    expected = (
        'Argument 1 to "execute" of "Cursor" has incompatible type "str"; expected '
        '"LiteralString | bytes | SQL | Composed"  [literal-string]'
    )
    assert _errors(_mypy(tmp_path, [main])) == [
        f"main.py:19: error: {expected}",
        f"main.py:20: error: {expected}",
    ]
    assert _errors(_mypy(tmp_path, [main], config=PLAIN_CONFIG, cache="plain")) == []


def test_names_that_only_hold_literals_are_literal_like_in_pyright(tmp_path: Path) -> None:
    """pyright infers `TABLE = "users"` as `Literal["users"]` wherever it is used; mypy widened
    it to `str`, and each use below in a function was a false error."""
    _write(tmp_path, "consts.py", 'SHARED = "shared_table"\nMIXED = "a"\n')
    _write(tmp_path, "lib.py", SINK)
    main = _write(
        tmp_path,
        "main.py",
        "from consts import SHARED\n"
        "from lib import sink\n"
        'TABLE = "users"\n'
        'SCHEMA = "CREATE TABLE " + TABLE\n'
        'CHANGED = "a"\n'
        "class Q:\n"
        '    TABLE = "orders"\n'
        '    MOVED = "x"\n'
        "    def m(self, user: str) -> None:\n"
        '        sink(f"SELECT * FROM {self.TABLE}")\n'
        "        self.MOVED = user\n"
        "        sink(self.MOVED)\n"  # E: assigned a str in a method
        "def f(user: str) -> None:\n"
        "    global CHANGED\n"
        "    CHANGED = user\n"
        '    sink(f"SELECT * FROM {TABLE}")\n'
        "    sink(SCHEMA)\n"
        "    sink(SHARED)\n"
        "    sink(Q.TABLE)\n"
        "    sink(TABLE.upper())\n"
        "    sink(CHANGED)\n",  # E: reassigned through `global`
    )
    expected = [
        'main.py:12: error: Argument 1 to "sink" has incompatible type "str"; expected '
        '"LiteralString"  [literal-string]',
        'main.py:21: error: Argument 1 to "sink" has incompatible type "str"; expected '
        '"LiteralString"  [literal-string]',
    ]
    assert _errors(_mypy(tmp_path, [main])) == expected
    assert _errors(_mypy(tmp_path, [main])) == expected  # the cache keeps the constants
    assert _errors(_mypy(tmp_path, [main], config=PLAIN_CONFIG, cache="plain")) == []


def test_isinstance_narrowing_through_a_nested_union_alias(tmp_path: Path) -> None:
    """psycopg 3's own `_queries.py`: `Query = Union[QueryNoTemplate, Template]`; after
    `if isinstance(query, Template): return`, mypy narrows to `str | bytes`, and the declared
    LiteralString was not seen through the nested alias (4 false errors on psycopg 3.3.9)."""
    main = _write(
        tmp_path,
        "main.py",
        "from typing import Union\n"
        "from typing_extensions import LiteralString\n"
        "class Template: ...\n"
        "QueryNoTemplate = Union[LiteralString, bytes]\n"
        "Query = Union[QueryNoTemplate, Template]\n"
        "def ensure_bytes(query: QueryNoTemplate) -> bytes: ...\n"
        "def convert(query: Query, user: str) -> bytes:\n"
        "    if isinstance(query, Template):\n"
        '        return b""\n'
        "    ensure_bytes(user)\n"
        "    return ensure_bytes(query)\n",
    )
    assert _errors(_mypy(tmp_path, [main], "--allow-empty-bodies")) == [
        'main.py:10: error: Argument 1 to "ensure_bytes" has incompatible type "str"; expected '
        '"LiteralString | bytes"  [literal-string]'
    ]


def test_comparisons_with_literals_narrow_as_in_pyright(tmp_path: Path) -> None:
    """The forms pyright 1.1.414 narrows, and the ones it does not (each `# E` line is an
    error under pyright too)."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from lib import sink\n"
        "def f(key: str, other: str) -> None:\n"
        '    if key == "name":\n'
        "        sink(key)\n"
        '    if "name" == key:\n'
        "        sink(key)  # E\n"
        '    if key in ("name", "age") and other:\n'
        "        sink(key)\n"
        '    if key in ["name", "age"]:\n'
        "        sink(key)  # E\n"
        '    if key == "name":\n'
        "        key = other\n"
        "        sink(key)  # E\n"
        '    if key != "name":\n'
        "        sink(key)  # E\n"
        "    else:\n"
        "        sink(key)\n"
        "def allow_listed(col: str) -> None:\n"
        '    if col not in ("a", "b"):\n'
        "        raise ValueError(col)\n"
        "    sink(col)\n"
        "def only_printed(col: str) -> None:\n"
        '    if col not in ("a", "b"):\n'
        "        print(col)\n"
        "    sink(col)  # E\n"
        "def after_a_loop(cols: list[str]) -> None:\n"
        "    for col in cols:\n"
        '        if col not in ("a", "b"):\n'
        "            continue\n"
        "        sink(col)\n"
        "    sink(col)  # E\n"
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_loop_targets_union_declarations_and_flow_as_in_pyright(tmp_path: Path) -> None:
    """Misses (a `for` target declared LiteralString, as in psycopg 3's own sql.py) and a false
    error (`y = "a"; sink(y); y = user`); each `# E` line is an error under pyright 1.1.414."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from typing import Iterable, Union\n"
        "from typing_extensions import LiteralString\n"
        "from lib import sink\n"
        "def loop(items: Iterable[str], pairs: Iterable[tuple[str, int]]) -> None:\n"
        "    pre: LiteralString\n"
        "    for pre in items:  # E\n"
        "        sink(pre)\n"
        "    first: LiteralString\n"
        "    for first, n in pairs:  # E\n"
        "        pass\n"
        '    for pre in ("a", "b"):\n'
        "        sink(pre)\n"
        '    for pre in ["a", "b"]:  # E\n'
        "        sink(pre)\n"
        "def union(user: str) -> None:\n"
        '    q: Union[LiteralString, bytes] = b""\n'
        "    q = user  # E\n"
        "def flow(user: str, users: list[str]) -> None:\n"
        '    y = "a"\n'
        "    sink(y)\n"
        "    y = user\n"
        "    sink(y)  # E\n"
        '    z = "SELECT"\n'
        "    for u in users:\n"
        "        sink(z)  # E\n"
        "        z = u\n"
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_a_refused_overloaded_call_keeps_its_return_type(tmp_path: Path) -> None:
    """The signature hook made the LiteralString item unmatchable even when no other item took
    the call: mypy typed it Any, and `--warn-return-any` added an error mypy alone does not."""
    _write(
        tmp_path,
        "lib.pyi",
        "from typing import Literal, overload\n"
        "from typing_extensions import LiteralString\n"
        "class Result: ...\n"
        "@overload\n"
        "def run(cmd: str, shell: Literal[False] = False) -> Result: ...\n"
        "@overload\n"
        "def run(cmd: LiteralString, shell: bool = False) -> Result: ...\n",
    )
    main = _write(
        tmp_path,
        "main.py",
        "from lib import Result, run\n"
        "def f(user: str) -> Result:\n"
        "    return run(user, shell=True)\n"
        "def g(user: str) -> Result:\n"
        "    return run(user)\n"
        "def h() -> Result:\n"
        '    return run("ls", shell=True)\n',
    )
    assert _errors(_mypy(tmp_path, [main], "--warn-return-any")) == [
        'main.py:3: error: Argument 1 to "run" has incompatible type "str"; expected '
        '"LiteralString"  [literal-string]'
    ]
    assert _errors(_mypy(tmp_path, [main], "--warn-return-any", config=PLAIN_CONFIG)) == []


def test_tuple_constants_of_literals_narrow_and_join(tmp_path: Path) -> None:
    """benchmarks/corpus sql/019 and sql/035: a module tuple of literal names used as an
    allow-list (`if column not in VALID: raise`) and joined into a script; pyright keeps the
    tuple's literal items, mypy inferred tuple[str, ...]."""
    _write(tmp_path, "lib.py", SINK)
    _assert_errors_on_marked_lines(
        tmp_path,
        "from lib import sink\n"
        'VALID = ("name", "email")\n'
        'STEPS = ("ANALYZE;", "VACUUM;")\n'
        "def f(column: str, user: str) -> None:\n"
        '    sink("\\n".join(STEPS))\n'
        "    if column not in VALID:\n"
        "        raise SystemExit(column)\n"
        '    sink(f"SELECT {column} FROM t")\n'
        '    sink("\\n".join((user, "x")))  # E\n',
    )


def test_an_assignment_that_has_surely_run_hides_earlier_ones(tmp_path: Path) -> None:
    """`z = user; z = "b"; sink(z)` is fine (a false error before); an assignment in a branch
    or a loop hides nothing.  Each `# E` line is an error under pyright 1.1.414, the others not."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from lib import sink\n"
        "def flow(user: str, flag: bool, users: list[str]) -> None:\n"
        "    z = user\n"
        '    z = "b"\n'
        "    sink(z)\n"
        "    w = user\n"
        "    if flag:\n"
        '        w = "b"\n'
        "        sink(w)\n"
        "    sink(w)  # E\n"
        '    v = "a"\n'
        "    v += user\n"
        "    sink(v)  # E\n"
        "    u = user\n"
        "    for name in users:\n"
        "        sink(u)  # E\n"
        '        u = "b"\n'
        "    t = user\n"
        "    t = (\n"
        "        t + 'x'\n"
        "    )\n"
        "    sink(t)  # E\n"
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_a_use_in_its_own_reassignment_reads_the_earlier_value(tmp_path: Path) -> None:
    """djangorestframework 3.18.3's `snippet = "<li>..."` then `snippet = format_html(snippet,
    ...)`: the use inside the value was judged with the assignment it is in, whose value is no
    literal (a false error).  On one line, an assignment before the use still reaches it.  Each
    `# E` line is an error under pyright 1.1.414, the others not."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from typing_extensions import LiteralString\n"
        "from lib import sink\n"
        "def fmt(s: LiteralString, *args: object) -> str:\n"
        "    return s\n"
        "def f(user: str) -> None:\n"
        '    snippet = "<li>{}</li>"\n'
        "    snippet = fmt(snippet, user)\n"
        '    q = "SELECT 1"\n'
        "    q = fmt(\n"
        "        q\n"
        "    ) + fmt(q)\n"
        '    a = "x"; a = fmt(a)\n'
        "    other = user\n"
        "    other = fmt(other)  # E\n"
        "    b = user; b = fmt(b)  # E\n"
        "    c = user\n"
        "    c += fmt(c)  # E\n"
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_and_or_choosing_between_literals_is_literal(tmp_path: Path) -> None:
    """peewee 4.5.3's `'automerge=%s' % (state and '1' or '0')`: when `state` is falsy, so is
    `state and '1'`, and `or` gives '0'; the plugin judged no `and`/`or` at all.  Each `# E`
    line is an error under pyright 1.1.414, the others not (`flag and "1"` alone may be False:
    mypy's own arg-type error, as pyright's)."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from typing import Any, Optional\n"
        "from typing_extensions import LiteralString\n"
        "from lib import sink\n"
        "def f(flag: bool, a: Any, n: int, user: str, lit: LiteralString,\n"
        "      maybe: Optional[LiteralString]) -> None:\n"
        '    sink(flag and "1" or "0")\n'
        '    sink(a and "1" or "0")\n'
        '    sink(n and "1" or "0")\n'
        '    sink(user and "1" or "0")\n'
        '    sink("automerge=%s" % (flag and "1" or "0"))\n'
        '    sink((flag and "1") or (a and "2") or "0")\n'
        '    sink(lit or "0")\n'
        '    sink(maybe or "0")\n'
        '    sink(flag and lit or "0")\n'
        '    sink(lit and "1")\n'
        '    sink("a" or user)\n'
        '    sink(user or "0")  # E\n'
        '    sink(flag and user or "0")  # E\n'
        "    sink(lit and user)  # E\n"
        '    sink("automerge=%s" % (flag and "1" or user))  # E\n'
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_a_join_of_a_list_sum_judges_each_operand(tmp_path: Path) -> None:
    """mypy types `[user]` in the context of `lits +`, so the sum looked literal: a miss."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from typing_extensions import LiteralString\n"
        "from lib import sink\n"
        "def joins(user: str, lits: list[LiteralString]) -> None:\n"
        '    sink(", ".join(lits + ["id"]))\n'
        '    sink(", ".join(lits + [user]))  # E\n'
        "    cols = lits + [user]\n"
        '    sink(", ".join(cols))  # E\n'
        '    names = lits + ["id"]\n'
        '    sink(", ".join(names))\n'
        "    for row in [lits]:\n"
        '        sink(", ".join(row))\n'
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_a_list_started_empty_is_judged_by_what_is_put_in(tmp_path: Path) -> None:
    """pyright 1.1.414 types `parts = []` as list[Unknown], so its join passes LiteralString;
    mypy's list[str] (from the first append) made the join a false error (issue 28).  A
    non-literal item put in before the use (or by a closure) makes it an error here, not there."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from lib import sink\n"
        "def f(user: str, flag: bool) -> None:\n"
        "    parts = []\n"
        '    parts.append("name = ?")\n'
        "    if flag:\n"
        '        parts.insert(0, "age > ?")\n'
        '    sink(" AND ".join(parts))\n'
        "    for clause in parts:\n"
        "        sink(clause)\n"
        "    bad = []\n"
        '    bad.append("a")\n'
        "    bad.append(user)\n"
        '    sink(" AND ".join(bad))  # E\n'
        "    more = []\n"
        '    more.extend(["a", user])\n'
        '    sink(" AND ".join(more))  # E\n'
        "    late = []\n"
        '    late.append("a")\n'
        "    def add() -> None:\n"
        "        late.append(user)\n"
        '    sink(" AND ".join(late))  # E\n'
        "    declared: list[str] = []\n"
        '    declared.append("a")\n'
        # Literal in fact whatever its declaration: only "a" goes in (core/literal_idioms).
        '    sink(" AND ".join(declared))\n'
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_a_dict_of_literals_indexed_by_a_str_key_is_str(tmp_path: Path) -> None:
    """Its values are str, as pyright 1.1.414 says (issue 28): annotated or not, module or
    local, through a name or an f-string."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from typing_extensions import LiteralString\n"
        "from lib import sink\n"
        'COLS: dict[str, str] = {"a": "x", "b": "y"}\n'
        'LABELS = {"a": "x", "b": "y"}\n'
        'OK: dict[str, LiteralString] = {"a": "x"}\n'
        "def f(key: str) -> None:\n"
        "    sink(COLS[key])  # E\n"
        "    sink(LABELS[key])  # E\n"
        '    sink(f"SELECT {COLS[key]} FROM t")  # E\n'
        '    local = {"a": "x"}\n'
        "    col = local[key]\n"
        "    sink(col)  # E\n"
        "    sink(OK[key])\n"
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_loop_targets_and_repeated_or_copied_sequences_of_literals(tmp_path: Path) -> None:
    """False errors seen on our own typing_literalstring.sql: a `for` target over literals,
    `(marker,) * n` and `tuple(lits)` (mypy solves their items to str); pyright 1.1.414 agrees
    with each line."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from typing import Iterable\n"
        "from typing_extensions import LiteralString\n"
        "from lib import sink\n"
        "def pick(value: str, allowed: Iterable[LiteralString]) -> LiteralString:\n"
        "    for choice in tuple(allowed):\n"
        "        if choice == value:\n"
        "            return choice\n"
        "    raise ValueError(value)\n"
        "def loops(users: list[str], lits: list[LiteralString], n: int) -> None:\n"
        "    for name in users:\n"
        "        sink(name)  # E\n"
        "    for lit in sorted(lits):\n"
        "        sink(lit)\n"
        '    sink(", ".join(("?",) * n))\n'
        '    sink(", ".join(n * ("?",)))\n'
        '    sink(", ".join((users[0],) * n))  # E\n'
        '    sink(", ".join(tuple(lits)))\n'
        '    sink(", ".join(tuple(users)))  # E\n'
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_iterables_of_literals_where_an_iterable_of_literal_string_is_expected(
    tmp_path: Path,
) -> None:
    """`pick(col, ALLOWED)` with `ALLOWED = ("a", "b")` was a false error (mypy types the
    constant tuple[str, str] where its module uses it); list and set displays held in a name
    stay str, as pyright 1.1.414 says (each `# E` line is an error there), unless literal in
    fact: `st` is only joined, nothing can change it (core/literal_idioms.py)."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from typing import Iterable, List, Sequence\n"
        "from typing_extensions import LiteralString\n"
        "from lib import sink\n"
        "def pick(value: str, allowed: Iterable[LiteralString]) -> LiteralString:\n"
        "    raise ValueError(value)\n"
        "def seq(allowed: Sequence[LiteralString]) -> None: ...\n"
        "def lst(allowed: List[LiteralString]) -> None: ...\n"
        'ALLOWED = ("name", "email")\n'
        "def f(col: str, user: str, lits: List[LiteralString]) -> None:\n"
        "    pick(col, ALLOWED)\n"
        '    local = ("a", "b")\n'
        "    pick(col, local)\n"
        "    seq(ALLOWED)\n"
        '    mixed = ("a", user)\n'
        "    pick(col, mixed)  # E\n"
        '    cols = ["a", "b"]\n'
        "    lst(cols)  # E\n"
        "    pick(col, cols)  # E\n"
        "    pick(col, [user])  # E\n"
        '    sink(", ".join(cols))  # E\n'
        '    st = {"a", "b"}\n'
        '    sink(", ".join(st))\n'
        '    summed = lits + ["id"]\n'
        '    sink(", ".join(summed))\n'
        '    rep = ("?",) * 3\n'
        '    sink(", ".join(rep))\n'
    )
    _assert_errors_on_marked_lines(tmp_path, source)


OVERLOADED_SINK = """\
import json
from typing import Any, List, Literal, overload
from typing_extensions import LiteralString
@overload
def run(cmd: LiteralString, shell: Literal[True]) -> int: ...
@overload
def run(cmd: List[str], shell: Literal[False] = ...) -> int: ...
def run(cmd: Any, shell: bool = False) -> int:
    return 0
def f(x: Any, raw: str) -> None:
    run(x, shell=True)  # E
    run(json.loads(raw)["cmd"], shell=True)  # E
    run("ls " + x, shell=True)  # E
    run("ls", shell=True)
    run(["ls", raw])
    run(["ls", x])
"""


@pytest.mark.parametrize("disallow_any", [False, True])
def test_disallow_any_covers_overloaded_sinks(tmp_path: Path, disallow_any: bool) -> None:
    """With `disallow_any`, Any reaching an overloaded sink's LiteralString item is an error,
    as it is at a plain one; the overload hook used to let mypy pick that item silently."""
    main = _write(tmp_path, "main.py", OVERLOADED_SINK)
    config = PLUGIN_CONFIG + ("\n[typing_literalstring]\ndisallow_any = true\n" * disallow_any)
    errors = _errors(_mypy(tmp_path, [main], config=config))
    marked = [n for n, line in enumerate(OVERLOADED_SINK.splitlines(), 1) if line.endswith("# E")]
    assert [int(e.split(":")[1]) for e in errors] == (marked if disallow_any else [])
    assert all("[literal-string]" in e and '"Any"' in e for e in errors)


ANY_IN_COMPOSITIONS = """\
import json
from typing_extensions import LiteralString


def sink(q: LiteralString) -> None: ...


def f(body: str) -> None:
    payload = json.loads(body)
    sink(payload["q"])  # E
    sink("SELECT '" + payload["name"] + "'")  # E
    sink(f"SELECT {payload['c']} FROM t")  # E
    sink("SELECT %s FROM t" % payload["c"])  # E
    sink("SELECT {} FROM t".format(payload["c"]))  # E
    sink(", ".join(payload["cols"]))  # E
    query = "DELETE FROM t WHERE a = '" + payload["a"] + "'"
    sink(query)  # E
    sink("SELECT 1")
"""


def test_disallow_any_agrees_with_report_any_on_every_composition_form(tmp_path: Path) -> None:
    """The forms that `check --report-any` judges (tests/test_report_any.py) are each an error
    with `disallow_any`; without it, only those that mypy types as str are."""
    main = _write(tmp_path, "main.py", ANY_IN_COMPOSITIONS)
    marked = [
        n for n, line in enumerate(ANY_IN_COMPOSITIONS.splitlines(), 1) if line.endswith("# E")
    ]
    config = PLUGIN_CONFIG + "\n[typing_literalstring]\ndisallow_any = true\n"
    errors = _errors(_mypy(tmp_path, [main], config=config))
    assert [int(e.split(":")[1]) for e in errors] == marked
    # Without it, `literal + Any`, a bare Any and a name holding `literal + Any` pass: mypy
    # types them Any, which PEP 675 lets through.
    errors = _errors(_mypy(tmp_path, [main], config=PLUGIN_CONFIG))
    assert [int(e.split(":")[1]) for e in errors] == [12, 13, 14, 15]


UNPACKED_ARGUMENTS = """\
from typing import overload
from typing_extensions import LiteralString


@overload
def log(msg: object) -> None: ...
@overload
def log(msg: LiteralString, arg: object, /, *args: object) -> None: ...
def log(msg: object, *args: object) -> None: ...


def f(x: str, y: list[int]) -> None:
    log(x, *y, 0)  # E
    log(x, 1)  # E
    log(x, *y)
    log("literal %s", *y, 0)
"""


def test_an_overloaded_call_with_unpacked_arguments_is_judged(tmp_path: Path) -> None:
    """`*args` no longer stops the plugin from judging an overloaded call: the item with
    arguments is the one mypy takes for `log(x, *y, 0)`; for `log(x, *y)` mypy takes the first
    item (`*y` may be empty), and so does the plugin."""
    main = _write(tmp_path, "main.py", UNPACKED_ARGUMENTS)
    errors = _errors(_mypy(tmp_path, [main]))
    marked = [
        n for n, line in enumerate(UNPACKED_ARGUMENTS.splitlines(), 1) if line.endswith("# E")
    ]
    assert [int(e.split(":")[1]) for e in errors] == marked


OPTIONAL_CONTAINERS = """\
from typing import Dict, List, Mapping, Optional, Sequence
from typing_extensions import LiteralString


def where(clauses: Optional[Sequence[LiteralString]] = None) -> None: ...
def select(columns: Optional[Mapping[str, LiteralString]] = None) -> None: ...


def f(user: str, strs: List[str], d: Dict[str, str], ok: List[LiteralString]) -> None:
    where([user])  # E
    where(clauses=strs)  # E
    select({"k": user})  # E
    select(d)  # E
    where(["a = 1", "b = 2"])
    where(ok)
    where(None)
    select({"k": "v"})
    select(None)
"""


def test_containers_of_literal_strings_under_an_optional_are_checked(tmp_path: Path) -> None:
    """Django's extra(where: Sequence[LiteralString] | None): a list of str is refused as it
    is without the Optional; None and literal items pass."""
    _assert_errors_on_marked_lines(tmp_path, OPTIONAL_CONTAINERS)


def test_the_cache_metadata_changes_with_the_plugins_code(tmp_path: Path) -> None:
    """mypy replays a module's cached errors while the plugin's reported configuration is
    unchanged, and hashes only the plugin's entry module: a checkout that changed how the
    plugin judges, under the same version, replayed the old verdicts."""
    from typing_literalstring.mypy.plugin_type import source_digest

    (tmp_path / "literals.py").write_text("A = 1\n")
    before = source_digest(tmp_path)
    source_digest.cache_clear()
    (tmp_path / "literals.py").write_text("A = 2\n")
    assert source_digest(tmp_path) != before


def test_idioms_literal_in_fact_are_proven_as_under_every_checker(tmp_path: Path) -> None:
    """Issue 44: text built only from literals by idioms mypy types `str` (an IN list's
    markers, a loop over a list of table names, a lookup in a dict display) is judged by the
    same rules as `check` applies for every checker (core/literal_idioms.py), each rule with
    its negative case."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from lib import sink\n"
        "def f(ids: list[int], n: int, user: str, sep: str, flag: bool) -> None:\n"
        '    sink(",".join("?" * n))\n'
        '    sink("x IN ({})".format(", ".join(["?" for _ in ids])))\n'
        "    sink(f\"x IN ({','.join('?' * len(ids))})\")\n"
        '    tables = ["events", "alarms"]\n'
        "    for table in tables:\n"
        '        sink(f"DELETE FROM {table}")\n'
        '    sink("<code>%s</code>" % {True: "true", False: "false"}[flag])\n'
        '    sink(sep.join("?" * n))  # E\n'
        '    sink(",".join(user * n))  # E\n'
        '    changed = ["events", "alarms"]\n'
        "    changed.append(user)\n"
        "    for name in changed:\n"
        "        sink(name)  # E\n"
        '    sink({True: "true", False: user}[flag])  # E\n'
    )
    _assert_errors_on_marked_lines(tmp_path, source)
    main = tmp_path / "main.py"
    assert len(_errors(_mypy(tmp_path, [main.name], "--no-incremental"))) == 4


def test_idioms_on_lines_that_are_not_ascii(tmp_path: Path) -> None:
    """mypy's native parser counts columns its own way where a line has characters beyond
    ASCII: the expression is still found in the source (in_fact._native_columns)."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from lib import sink\n"
        "def f(n: int, user: str) -> None:\n"
        '    sink("é" + ",".join("?" * n) + "€😀")\n'
        '    sink("😀😀" + ",".join(user * n))  # E\n'
        "    sink(f\"{'é'}{','.join(['?'] * n)}\")\n"
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_idioms_in_a_grammar_newer_than_the_host(tmp_path: Path) -> None:
    """mypy's native parser reads PEP 701 f-strings on any Python; ours reads them through
    core/grammar.py (tree-sitter), every offset kept."""
    if sys.version_info < (3, 12):
        pytest.importorskip("tree_sitter")
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from lib import sink\n"
        "def f(ids: list[int], user: str) -> None:\n"
        '    sink(f"x IN ({",".join("?" * len(ids))})")\n'
        '    sink(f"x IN ({",".join(user * len(ids))})")  # E\n'
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_the_idioms_are_read_from_the_file_mypy_checked(tmp_path: Path) -> None:
    """`check` gives mypy instrumented copies with --shadow-file: the plugin must judge the
    copy's text (its positions are the ones mypy has), not the original's."""
    _write(tmp_path, "lib.py", SINK)
    _write(tmp_path, "main.py", "from lib import sink\ndef f(n: int) -> None:\n    pass\n")
    copy = _write(
        tmp_path,
        "instrumented.py",
        "from lib import sink\n"
        "def f(n: int, user: str) -> None:\n"
        '    sink(",".join("?" * n))\n'
        '    sink(",".join(user * n))\n',
    )
    errors = _errors(_mypy(tmp_path, ["main.py"], "--shadow-file", "main.py", copy))
    assert [e.split(":")[1] for e in errors] == ["4"]


def test_check_s_reveal_of_a_sink_part_counts_literal_in_fact(tmp_path: Path) -> None:
    """`check` judges the calls of a project's own wrapper (khal's `sql_ex(statement: str)`)
    from the plugin's reveal of each part: an idiom literal in fact is revealed LiteralString,
    as the post-pass judges an argument."""
    from typing_literalstring.checkers.asking import Probe

    probe = Probe("0123456789abcdef")
    _write(tmp_path, f"{probe.module}.pyi", probe.stub())
    main = _write(
        tmp_path,
        "main.py",
        f"from {probe.module} import reveal\n"
        "def f(calendars: list[str], user: str) -> None:\n"
        "    reveal(f\"x IN ({','.join('?' * len(calendars))})\", 1)\n"
        '    sql = "DELETE FROM t"\n'
        '    for table in ["recs_loc", "recs_float"]:\n'
        '        sql = f"DELETE FROM {table}"\n'
        "    reveal(sql, 2)\n"
        "    reveal(f\"x IN ({','.join(user * len(calendars))})\", 3)\n",
    )
    proc = _mypy(tmp_path, [main])
    notes = [line.split("note: ")[1] for line in proc.stdout.splitlines() if "note:" in line]
    assert notes == [
        'Revealed type is "tuple[LiteralString, Literal[1]]"',
        'Revealed type is "tuple[LiteralString, Literal[2]]"',
        'Revealed type is "tuple[str, Literal[3]]"',
    ]


def test_check_s_reveals_in_a_probed_copy_do_not_change_a_verdict(tmp_path: Path) -> None:
    """In the copy `check` makes, a list is also handed to the reveal probe: that only shows
    it (the same verdict as without `check`, measured: otherwise a finding)."""
    from typing_literalstring.checkers.asking import Probe

    probe = Probe("0123456789abcdef")
    _write(tmp_path, "lib.py", SINK)
    _write(tmp_path, f"{probe.module}.pyi", probe.stub())
    source = (
        probe.import_line() + "from lib import sink\n"
        "def f() -> None:\n"
        '    cols = ["a", "b"]\n'
        f'    sink(", ".join(cols)); {probe.reveal}((cols), 3); {probe.judged}((cols), 4)\n'
    )
    _assert_errors_on_marked_lines(tmp_path, source)


def test_an_unreadable_source_proves_nothing(tmp_path: Path) -> None:
    from mypy.nodes import NameExpr
    from mypy.options import Options

    from typing_literalstring.mypy.in_fact import source_facts

    name = NameExpr("q")
    name.set_line(1, 0, 1, 1)
    assert source_facts(str(tmp_path / "gone.py"), Options())(name) is False
    (tmp_path / "bad.py").write_text("def (:\n")
    assert source_facts(str(tmp_path / "bad.py"), Options())(name) is False


def test_a_name_declared_str_holds_what_was_assigned(tmp_path: Path) -> None:
    """Issue 44: `query: str = "UPDATE t SET"; query += " a = ?,"; query = query[:-1] + ...`
    was an error under mypy while pyright narrows a declared `str` to what is assigned, its
    parameter's value included.  `replaced` and `reassigned` are proven by this narrowing
    alone: their names are not literal in fact (a parameter, `user`), only flow says so."""
    _write(tmp_path, "lib.py", SINK)
    source = (
        "from lib import sink\n"
        "def update(flag: bool) -> None:\n"
        '    query: str = "UPDATE t SET"\n'
        '    query += " a = ?,"\n'
        "    if flag:\n"
        '        query += " b = ?,"\n'
        '    query = query[:-1] + " WHERE id = ?"\n'
        "    sink(query)\n"
        "def given(q: str, flag: bool) -> None:\n"
        "    if flag:\n"
        '        q = "SELECT 1"\n'
        "    sink(q)  # E: the caller's value may reach it\n"
        "def replaced(q: str) -> None:\n"
        '    q = "SELECT 1"\n'
        "    sink(q)\n"
        "def reassigned(user: str) -> None:\n"
        "    text: str = user\n"
        '    text = "SELECT 1"\n'
        "    sink(text)\n"
        "def mixed(user: str) -> None:\n"
        '    text: str = "SELECT 1"\n'
        "    text += user\n"
        "    sink(text)  # E\n"
    )
    _assert_errors_on_marked_lines(
        tmp_path, source.replace("  # E: the caller's value may reach it", "  # E")
    )


CONSTANTS = """\
TABLE = "users"
TABLES = ("events", "alarms")
class Base:
    TABLE = "orders"
"""
DERIVED = """\
import consts
SCHEMA = "CREATE TABLE " + consts.TABLE
"""
IMPORTER = """\
import consts
from consts import TABLE as T, TABLES, Base
from derived import SCHEMA
from lib import sink
class Q(Base):
    def m(self, key: str) -> None:
        sink(T)
        sink(consts.TABLE)
        sink(Base.TABLE)
        sink(self.TABLE)
        sink(SCHEMA)
        sink(", ".join(TABLES))
        for table in TABLES:
            sink(f"DELETE FROM {table}")
        if key in TABLES:
            sink(key)
"""


def test_constants_of_cached_modules_keep_their_verdict(tmp_path: Path) -> None:
    """Issue 44: mypy writes a module to its cache before the plugin's post-pass marks its
    literal constants, so after an edit of the importer alone (the constants' module taken
    from the cache) every use above was an error; a cold run had none."""
    _write(tmp_path, "lib.py", SINK)
    _write(tmp_path, "consts.py", CONSTANTS)
    _write(tmp_path, "derived.py", DERIVED)
    _write(tmp_path, "main.py", IMPORTER)
    files = ["main.py", "consts.py", "derived.py", "lib.py"]
    assert _errors(_mypy(tmp_path, files)) == []  # cold
    warm = _mypy(tmp_path, files, "--verbose")
    assert "Metadata fresh for main: file main.py" in warm.stderr
    assert _errors(warm) == []
    _write(tmp_path, "main.py", IMPORTER + "# edited\n")
    edited = _mypy(tmp_path, files, "--verbose")
    assert "Metadata fresh for consts: file consts.py" in edited.stderr
    assert "Metadata fresh for main: file main.py" not in edited.stderr
    assert _errors(edited) == []
    assert _errors(_mypy(tmp_path, files, cache="other", config=PLUGIN_CONFIG)) == []


def test_an_unchanged_importer_sees_a_constant_change(tmp_path: Path) -> None:
    """The marks are in the cached interface: a constant that stops being literal rechecks
    the modules that use it (and the error goes when it is literal again)."""
    _write(tmp_path, "lib.py", SINK)
    _write(tmp_path, "consts.py", CONSTANTS)
    _write(tmp_path, "derived.py", DERIVED)
    _write(tmp_path, "main.py", IMPORTER)
    files = ["main.py", "consts.py", "derived.py", "lib.py"]
    assert _errors(_mypy(tmp_path, files)) == []
    # Another size: mypy takes a file of the same size and mtime second for unchanged.
    _write(tmp_path, "consts.py", CONSTANTS.replace('TABLE = "users"', 'TABLE = input("? ")'))
    changed = _errors(_mypy(tmp_path, files))
    assert [e.split(":")[:2] for e in changed] == [
        ["main.py", "7"],
        ["main.py", "8"],
        ["main.py", "11"],
    ]
    _write(tmp_path, "consts.py", CONSTANTS)
    assert _errors(_mypy(tmp_path, files)) == []


def test_check_with_mypy_gives_the_cold_verdict_from_its_persistent_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44: `check --checker mypy` keeps mypy's cache between runs and checks copies of
    the files that hold sink calls, so the second run (nothing edited) rechecked app.py with
    consts.py from the cache: both calls became findings (measured before the fix)."""
    import json

    from typing_literalstring.commands.cli import main

    monkeypatch.chdir(tmp_path)
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "consts.py").write_text('TABLE = "users"\nTABLES = ("events", "alarms")\n')
    (root / "app.py").write_text(
        "import sqlite3\n"
        "from consts import TABLE as T, TABLES\n"
        "def purge(conn: sqlite3.Connection) -> None:\n"
        '    conn.execute(f"SELECT * FROM {T}")\n'
        "    for table in TABLES:\n"
        '        conn.execute(f"DELETE FROM {table}")\n'
    )
    args = ["check", "--cache-dir", str(tmp_path / "cache"), "--format", "json"]
    for _ in ("cold", "warm"):
        assert main([*args, "--checker", "mypy", str(root)]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["findings"] == []
        assert document["sink_calls"]["proven"] == 2
