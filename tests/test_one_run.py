"""One checker run per check (issue 26): the probes of shells in argument lists and of logging
calls with only ``*args`` are checked in the tightened run itself, on copies of their files
checked in the originals' place, and every message maps back to the original's position."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.checkers import CHECKERS, base
from typing_literalstring.commands import EXIT_FINDINGS
from typing_literalstring.commands.check import run_check
from typing_literalstring.core.errors import CheckerFailedError
from typing_literalstring.core.source_edits import insert_at

HELPERS = '''\
"""A module whose calls only probes can judge, importing its package relatively."""
from __future__ import annotations

import logging
import sqlite3
import subprocess

from . import util
from .util import Thing

log = logging.getLogger(__name__)


def go(conn: sqlite3.Connection, user: str, args: tuple[str, ...]) -> Thing:
    conn.execute("SELECT * FROM t WHERE name = '%s'" % user)
    subprocess.run(["bash", "-lc", f"ls {user}"]); n: int = "soon"  # noqa: E702
    log.warning(*args)
    return util.make()
'''

UTIL = "class Thing:\n    pass\n\n\ndef make() -> Thing:\n    return Thing()\n"


def _project(root: Path) -> Path:
    package = root / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text(HELPERS)
    (package / "util.py").write_text(UTIL)
    return package / "helpers.py"


def _installed(name: str) -> None:
    if not CHECKERS[name].is_installed():
        pytest.skip(f"{name} is not installed")


@pytest.mark.parametrize("profile", ["default", "strict"])
@pytest.mark.parametrize(
    "name", ["pyright", "basedpyright", "mypy+plugin", "ty", "zuban", "pyrefly"]
)
def test_a_check_starts_one_checker_process(
    name: str, profile: str, tmp_path: Path, cache_dir: Path, checker_processes: list[list[str]]
) -> None:
    """A project with a SQL sink, a shell in an argument list and a logging call with only
    ``*args``, in a package with relative imports: one checker process, the version query
    aside (two before: the probes had a run of their own)."""
    _installed(name)
    helpers = _project(tmp_path)
    started = checker_processes
    result = run_check(CHECKERS[name], [tmp_path], profile=profile, cache_dir=cache_dir)
    assert len(started) == 1, result.checker_runs
    assert result.checker_runs == [("tightened", 3)]
    found = {(Path(f.path).name, f.line, f.rule.id) for f in result.findings}
    assert {("helpers.py", 15, "LS101"), ("helpers.py", 16, "LS202")} <= found
    # Nothing of the probes is left among the other errors, and the import they add
    # resolves: the copy imports its package as the original does.
    assert not [d for d in result.other if "typing_literalstring" in d.message], result.other
    assert result.unresolved == []
    assert str(helpers.resolve()) in {f.path for f in result.findings}


def test_mypy_checks_a_probed_module_that_imports_relatively(
    tmp_path: Path, cache_dir: Path
) -> None:
    """The probes' run of their own checked a copy outside its package: mypy stopped with "No
    parent module -- cannot perform relative import" and check exited 2.  The copy is now
    read in the original's place (--shadow-file)."""
    _installed("mypy+plugin")
    _project(tmp_path)
    result = run_check(CHECKERS["mypy+plugin"], [tmp_path], cache_dir=cache_dir)
    assert [(Path(f.path).name, f.rule.id) for f in result.findings] == [
        ("helpers.py", "LS101"),
        ("helpers.py", "LS202"),
    ]


@pytest.mark.parametrize("name", ["pyright", "mypy+plugin", "zuban"])
def test_messages_in_a_probed_file_keep_the_originals_position(
    name: str, tmp_path: Path, cache_dir: Path
) -> None:
    """The copy adds an import line and wraps the script: the checker's other error on the
    same line (``n: int = "soon"``) is at the original's line and column."""
    _installed(name)
    helpers = _project(tmp_path)
    result = run_check(CHECKERS[name], [tmp_path], cache_dir=cache_dir)
    line = HELPERS.splitlines()[15]
    (assigned,) = [d for d in result.other if d.path == str(helpers.resolve())]
    assert (assigned.line, assigned.column) == (16, line.index('"soon"') + 1), assigned


def test_status_of_a_check_with_probes_only_in_a_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path
) -> None:
    from typing_literalstring.commands.cli import main

    _installed("pyright")
    _project(tmp_path)
    status = main(["check", "--cache-dir", str(cache_dir), str(tmp_path)])
    assert status == EXIT_FINDINGS, capsys.readouterr()


def test_positions_map_back_through_insertions() -> None:
    source = "a = 1\nb = f(x, *y)\nc\n"
    copy = insert_at(
        source,
        [
            (len("a = 1\n"), b"from p import q\n"),
            (len("a = 1\nb = f(x, *y"), b", 0"),
            (len("a = 1\nb = f("), b"P("),
            (len("a = 1\nb = f(x"), b")"),
        ],
    )
    assert copy.text == "a = 1\nfrom p import q\nb = f(P(x), *y, 0)\nc\n"
    assert copy.original(1, 1) == (1, 1)
    assert copy.original(2, 1) is None  # the import we added
    assert copy.original(3, 5) == (2, 5)  # f
    assert copy.original(3, 7) is None  # P(
    assert copy.original(3, 7, inside=True) == (2, 7)
    assert copy.original(3, 9) == (2, 7)  # x
    assert copy.original(3, 14) == (2, 11)  # y
    assert copy.original(3, 18) == (2, 12)  # the closing parenthesis
    assert copy.original(4, 1) == (3, 1)


def test_positions_count_characters_not_bytes() -> None:
    source = 'x = "é"; f(y)\n'
    at = len('x = "é"; f('.encode())
    copy = insert_at(source, [(at, b"P("), (at + 1, b")")])
    assert copy.text == 'x = "é"; f(P(y))\n'
    assert copy.original(1, source.index("y") + 3) == (1, source.index("y") + 1)


@pytest.mark.parametrize("name", ["pyright", "ty"])
def test_a_subscript_without_a_matching_overload_is_not_revealed(
    name: str, tmp_path: Path, cache_dir: Path
) -> None:
    """ "No overloads for "__getitem__"" names the subscript, not the call around it: the
    reveal run asked about `g` for nothing (litecli 1.17.1: 14 such errors, a second pyright
    run on every check)."""
    _installed(name)
    (tmp_path / "a.py").write_text(
        'def g(x: object) -> None: ...\n\n\ndef f(xs: list[int]) -> None:\n    g(xs["a"])\n'
    )
    result = run_check(CHECKERS[name], [tmp_path], cache_dir=cache_dir)
    assert result.checker_runs == [("tightened", 1)]
    assert result.findings == []
    assert any("__getitem__" in d.message for d in result.other)


def test_every_statement_is_found_without_walking_expressions() -> None:
    """``all_statements`` (fingerprints, suppressions, fix hints) visits statement blocks only:
    the same statements as ``ast.walk`` finds, on the standard library's largest modules."""
    import ast
    import inspect
    import typing

    from typing_literalstring.analysis.statements import all_statements

    source = "match x:\n    case 1:\n        try:\n            pass\n"
    source += "        except E:\n            y = 1\n        finally:\n            z = 2\n"
    for text in (source, inspect.getsource(typing), inspect.getsource(subprocess)):
        tree = ast.parse(text)
        walked = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
        assert sorted(map(id, all_statements(tree))) == sorted(map(id, walked))


def test_verbose_says_what_the_checker_cost(
    tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The benchmark tells the tool's own time and memory from the checker's with this line."""
    from typing_literalstring.commands.cli import main

    _installed("pyright")
    _project(tmp_path)
    assert main(["check", "--verbose", "--cache-dir", str(cache_dir), str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert re.search(
        r"1 checker run: tightened \(3 files\); [\d.]+ s in the checker; peak memory \d+ MB "
        r"ours, \d+ MB the checker's",
        err,
    ), err


@pytest.mark.parametrize("name", ["pyright", "mypy+plugin", "ty"])
@pytest.mark.parametrize(
    "imported", ["from markupsafe import Markup", "import markupsafe\nMarkup = markupsafe.Markup"]
)
def test_a_sink_imported_from_its_tightened_module_needs_no_comparison_run(
    name: str, imported: str, tmp_path: Path, cache_dir: Path
) -> None:
    """`Markup(html)` says only `"__new__"` (pyright), `"Markup"` (mypy) or "constructor
    `Markup.__new__`" (ty), not markupsafe: every check on datasette 0.65.5 compared two files
    on the untightened stubs.  The file imports Markup from markupsafe itself, so the error is
    ours: one run, the same finding."""
    _installed(name)
    call = "Markup" if imported.startswith("from") else "markupsafe.Markup"
    (tmp_path / "views.py").write_text(
        f"{imported.splitlines()[0]}\n\n\ndef page(user: str) -> str:\n"
        f'    return {call}("<b>" + user + "</b>")\n'
    )
    result = run_check(CHECKERS[name], [tmp_path], cache_dir=cache_dir)
    assert result.checker_runs == [("tightened", 1)]
    assert [(f.line, f.rule.id) for f in result.findings] == [(5, "LS402")]


@pytest.mark.parametrize("name", ["pyright", "mypy+plugin", "ty"])
def test_the_version_of_a_checker_in_our_environment_starts_no_process(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pyright --version` started node for 0.3 to 0.6 s on every check, only for a cache key;
    the distribution beside us says the same (measured for all six)."""
    _installed(name)
    checker = CHECKERS[name]
    asked = checker._ask_version()  # pyright: ignore[reportPrivateUsage]
    started: list[list[str]] = []

    def counted(command: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:  # noqa: ANN401
        started.append(list(command))
        return subprocess.CompletedProcess(command, 1, "", "")

    monkeypatch.setattr(base, "_VERSION_OF", {})
    monkeypatch.setattr(base, "run_process", counted)
    assert checker.version() == asked
    assert started == []


def test_a_forced_pyright_release_is_asked_for_its_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pyright-python runs another release when told to: then only pyright knows."""
    _installed("pyright")
    monkeypatch.setattr(base, "_VERSION_OF", {})
    monkeypatch.setenv("PYRIGHT_PYTHON_FORCE_VERSION", "1.1.300")
    checker = CHECKERS["pyright"]
    assert checker._installed_version(checker.executable()) is None  # pyright: ignore[reportPrivateUsage]


def test_the_calls_of_a_line_are_found_wherever_its_statement_keeps_them() -> None:
    """Sites walks only the statements that hold an error: every call whose span holds a line
    is among them, in decorators, defaults, `except` types, `case` guards and lambdas too."""
    import ast
    import sys

    from typing_literalstring.analysis.callees import Sites

    source = """
import subprocess

@decorate(subprocess.run(a))
def f(x=default(b), *, y=lambda: g(c)):
    try:
        h(
            i(d),
        )
    except error(e) as err:
        return j(err)
    else:
        k(f"{l(x)}")
    finally:
        [m(v) for v in n(w)]

class C(base(o)):
    with p(q) as r, s(t):
        if u(v) and w(
            x,
        ):
            pass
"""
    if sys.version_info >= (3, 10):
        source += "match y(z):\n    case [a] if guard(a):\n        call(a)\n"
    tree = ast.parse(source)
    sites = Sites(tree)
    every = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert {id(c) for c in sites.calls} == {id(c) for c in every}
    for line in range(1, len(source.splitlines()) + 1):
        spanning = {id(c) for c in every if c.lineno <= line <= (c.end_lineno or c.lineno)}
        assert spanning <= {id(c) for c in sites.calls_on(line)}, line
    assert sites.at(4, 11).call is not None  # subprocess.run in the decorator
    assert sites.at(11, 16).kind == "argument"
    site = sites.at(13, 9).call
    assert site is not None
    assert site.lineno == 13


_QUANTITY = """from __future__ import annotations

from typing import overload{extra}


class Quantity:
    @overload
    def __new__(cls, value: int, unit: {unit}) -> Quantity: ...
    @overload
    def __new__(cls, value: float, unit: {unit}) -> Quantity: ...
    def __new__(cls, value: object, unit: object) -> Quantity:
        return super().__new__(cls)

    def doubled(self, unit: str) -> Quantity:
        return self.__class__("2", unit)
"""


@pytest.mark.parametrize("name", ["pyright", "ty"])
def test_a_class_building_itself_starts_no_reveal_run_unless_it_takes_literal_strings(
    name: str, tmp_path: Path, cache_dir: Path
) -> None:
    """pint (vendored in datasette) calls `self.__class__(...)` and `super().__new__(...)`
    with arguments no overload of its own `__new__` takes: every check asked the checker for
    nine such callees' types in a second run.  No `__new__` of the project takes
    LiteralString, so none of those errors can be about one."""
    _installed(name)
    (tmp_path / "units.py").write_text(_QUANTITY.format(extra="", unit="str"))
    result = run_check(CHECKERS[name], [tmp_path], cache_dir=cache_dir)
    assert result.checker_runs == [("tightened", 1)]
    assert result.findings == []
    # A project whose own constructor takes LiteralString: still one run.  Where the checker's
    # words say a LiteralString refused the str (pyright names the closest overload's
    # parameter) it is an LS001; where they do not (ty), one of the checker's other errors,
    # counted and listed by --show-other: no second run reveals the callee any more.
    (tmp_path / "units.py").write_text(
        _QUANTITY.format(
            extra="\nfrom typing_extensions import LiteralString", unit="LiteralString"
        )
    )
    result = run_check(CHECKERS[name], [tmp_path], cache_dir=cache_dir)
    assert result.checker_runs == [("tightened", 1)]
    assert [(f.line, f.rule.id) for f in result.findings] == ([(16, "LS001")] * (name == "pyright"))
    assert {d.line for d in result.other} == {16}


def test_pyrefly_names_the_command_a_shell_overload_refused_so_one_run_tells(
    tmp_path: Path, cache_dir: Path
) -> None:
    """pyrefly lists a failed call's argument types: `(str, shell=Literal[True])` is a command
    our overloads refuse, whatever else the call gets wrong (datasette's `check_call`, invoke's
    `Popen`: 2 runs each).  A literal command fails them for another reason: it was a finding,
    the stock run wording that error otherwise; now it is one of pyrefly's other errors."""
    _installed("pyrefly")
    (tmp_path / "deploy.py").write_text(
        "import subprocess\n\n\ndef deploy(cmd: str) -> None:\n"
        "    subprocess.check_call(cmd, shell=True)\n"
        '    subprocess.Popen(cmd, shell=True, env={"A": "1"}, stdout=subprocess.PIPE)\n'
    )
    result = run_check(CHECKERS["pyrefly"], [tmp_path], cache_dir=cache_dir)
    assert result.checker_runs == [("tightened", 1)]
    assert [(f.line, f.rule.id) for f in result.findings] == [(5, "LS201"), (6, "LS201")]
    (tmp_path / "deploy.py").write_text(
        'import subprocess\n\nsubprocess.check_call("ls", shell=True, cwd=3)\n'
    )
    result = run_check(CHECKERS["pyrefly"], [tmp_path], cache_dir=cache_dir)
    assert result.checker_runs == [("tightened", 1)]
    assert result.findings == []
    assert len(result.other) == 1


def test_ty_reveals_shell_commands_in_the_run_itself(tmp_path: Path, cache_dir: Path) -> None:
    """ty's "No overload of function `check_call` matches arguments" lists no argument types,
    so each such call on datasette was compared in an untightened run.  The command of each
    shell=True call is revealed in the tightened run instead: `str` is refused by our
    overloads, a literal command fails them for another reason (an error of ty's own)."""
    _installed("ty")
    (tmp_path / "deploy.py").write_text(
        "import subprocess\n\n\ndef deploy(cmd: str, n: int) -> None:\n"
        "    subprocess.check_call(cmd, shell=True)\n"
        '    subprocess.check_call("ls -l", shell=True, cwd=n)\n'
        '    subprocess.Popen(f"ls {cmd}", shell=True, env={"A": "1"}, stdout=subprocess.PIPE)\n'
    )
    result = run_check(CHECKERS["ty"], [tmp_path], cache_dir=cache_dir)
    assert result.checker_runs == [("tightened", 1)]
    assert [(f.line, f.rule.id) for f in result.findings] == [(5, "LS201"), (7, "LS201")]
    assert [(d.line, d.code) for d in result.other] == [(6, "no-matching-overload")]


def test_a_method_of_a_builtin_class_is_not_revealed(tmp_path: Path, cache_dir: Path) -> None:
    """ty names the class of a method no overload matched (`dict.setdefault` through an
    attribute, in pint on datasette): a builtin's method takes no LiteralString in the stock
    stubs, so no reveal run is needed for it."""
    _installed("ty")
    (tmp_path / "registry.py").write_text(
        "class Registry:\n    def __init__(self) -> None:\n"
        "        self.cache: dict[str, list[int]] = {}\n\n"
        "    def add(self, key: str) -> None:\n"
        '        self.cache.setdefault(key, "x")\n'
    )
    result = run_check(CHECKERS["ty"], [tmp_path], cache_dir=cache_dir)
    assert result.checker_runs == [("tightened", 1)]
    assert result.findings == []


def test_a_sink_held_in_a_name_needs_no_comparison_run(tmp_path: Path, cache_dir: Path) -> None:
    """mypy says 'Argument 1 to "function"' for invoke's `debug = log.debug; debug(msg)`:
    under the strict profile each of invoke's 63 such calls was compared in an untightened
    run of 8 files.  A callable without a name of its own called by a sink's name, expecting
    our specification's type, with no project function of that name taking LiteralString, is
    ours: one run, the same findings."""
    _installed("mypy+plugin")
    (tmp_path / "util.py").write_text(
        'import logging\n\nlog = logging.getLogger("x")\ndebug = log.debug\n'
    )
    (tmp_path / "complete.py").write_text(
        "from util import debug\n\n\ndef f(x: object) -> None:\n"
        '    debug("Completing for invocation: {!r}".format(x))\n'
    )
    result = run_check(CHECKERS["mypy+plugin"], [tmp_path], cache_dir=cache_dir, profile="strict")
    assert result.checker_runs == [("tightened", 2)]
    assert [(Path(f.path).name, f.line, f.rule.id) for f in result.findings] == [
        ("complete.py", 5, "LS302")
    ]


def test_a_call_whose_position_is_off_is_not_probed() -> None:
    """Python 3.8 places nodes inside an f-string two columns off: a question inserted there
    would break the copy the tightened run checks, losing the file's findings."""
    import ast

    from typing_literalstring.analysis.probes import probed_copy
    from typing_literalstring.checkers.asking import Probe

    source = 'import subprocess\nout = f"{subprocess.check_output(cmd, shell=True)!r}"\n'
    tree = ast.parse(source)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    probe = Probe("0123456789abcdef")
    copied = probed_copy("m.py", source, tree, CHECKERS["ty"], probe)
    assert copied is not None
    # Inside an f-string before Python 3.12 the call is counted but not asked about: its
    # questions' quotes could end the string.
    assert copied.copy.text == source
    ast.parse(copied.copy.text)
    call.col_offset -= 2  # as Python 3.8 records it
    call.end_col_offset = (call.end_col_offset or 0) - 2
    off = probed_copy("m.py", source, tree, CHECKERS["ty"], probe)
    # Nothing is inserted: the call is counted, unverified (sink_outcomes.py).
    assert off is None or off.copy.text == source


@pytest.mark.parametrize("name", ["pyright", "pyrefly"])
def test_no_overload_of_a_call_inside_a_sinks_argument_needs_no_comparison(
    name: str, tmp_path: Path, cache_dir: Path
) -> None:
    """borgmatic 2.1.10: `logger.debug(f"... {os.path.normpath(path)}")` with `path` maybe
    None: "No overloads for "normpath"" falls inside the sink call and sent the file to an
    untightened run.  One run; the call whose overload failed is Unknown to the checker, the
    only part of the message that is not literal: LS902, never proven."""
    _installed(name)
    (tmp_path / "paths.py").write_text(
        "import logging\nimport os\n\nlogger = logging.getLogger(__name__)\n\n\n"
        "def show(path: str | None) -> None:\n"
        '    logger.debug(f"Using {os.path.normpath(path)}")\n'
    )
    result = run_check(CHECKERS[name], [tmp_path], cache_dir=cache_dir, profile="strict")
    assert result.checker_runs == [("tightened", 1)]
    assert [(f.line, f.rule.id) for f in result.findings] == [(8, "LS902")]


@pytest.mark.parametrize("name", ["pyright", "mypy+plugin"])
def test_the_files_are_parsed_once_the_checker_has_started(
    name: str, tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parsing holds the interpreter's lock for milliseconds at a time: begun with the checker
    still to start, it slowed the copies' writing and the start itself (0.2 to 0.3 s of
    huey's check under pyright).  The parse now waits for the checker's process."""
    _installed(name)
    from typing_literalstring.commands import check

    _project(tmp_path)
    events: list[str] = []
    from typing_literalstring.analysis.parsed import parse_all
    from typing_literalstring.core.processes import run_process

    real_parse, real_run = parse_all, run_process

    def parse(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401
        events.append("parse")
        return real_parse(*args, **kwargs)

    def run(command: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:  # noqa: ANN401
        events.append("run")  # the process is about to start
        return real_run(command, **kwargs)

    monkeypatch.setattr(check, "parse_all", parse)
    monkeypatch.setattr(base, "run_process", run)
    result = run_check(CHECKERS[name], [tmp_path], cache_dir=cache_dir)
    assert result.files == 3
    assert events[0] == "run", events
    assert events.count("parse") == 3


def test_a_checker_that_cannot_start_leaves_no_parse_waiting(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parse waits for the checker's process: a checker that fails to start must not
    leave the check waiting for ever, but say why it failed."""
    _installed("pyright")
    _project(tmp_path)

    def fails(command: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:  # noqa: ANN401
        raise OSError(2, "No such file or directory", command[0])

    monkeypatch.setattr(base, "run_process", fails)
    with pytest.raises(CheckerFailedError, match="could not start pyright"):
        run_check(CHECKERS["pyright"], [tmp_path], cache_dir=cache_dir)
