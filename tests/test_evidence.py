"""A proof is evidence: every sink call's verdict is the checker's answer about its text, never
the absence of an error we recognised (issue: "A proof is evidence").

Each shape below turned injections into "proven literal" calls before: a locale that words the
checker's errors otherwise, a shell call's result used further (the checker then blames the
attribute), a file-level checker comment, a crafted literal type in another module, and code the
checker does not evaluate.  Under pyright, basedpyright and mypy (with our plugin) every
injection is a finding and none is proven; code the checker skips is unverified.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.checking import check_project

CHECKERS = ["pyright", "basedpyright", "mypy"]

# Every call of `app.py` is an injection: a finding, never proven.
APP = """\
import os
import sqlite3
import subprocess
from typing import Union

from aliases import Crafted


def chained(cmd: str) -> None:
    subprocess.check_output(cmd, shell=True).decode()  # LS201
    subprocess.Popen(cmd, shell=True).communicate()  # LS201
    subprocess.run(cmd, shell=True).check_returncode()  # LS201
    print(subprocess.getoutput(cmd).strip())  # LS201
    os.popen(cmd).read()  # LS201
    status = os.system(cmd) >> 8  # LS201
    print(status)


def crafted(cmd: Union[Crafted, str], conn: sqlite3.Connection) -> None:
    subprocess.run(cmd, shell=True)  # LS201
    os.system(cmd)  # LS201
    conn.execute(cmd)  # LS101
"""
# A type alias whose literal reads like a checker's message about another call.
ALIASES = (
    "from typing import Literal\n"
    "\n"
    'Crafted = Literal[\'" cannot be assigned to parameter "p" of type "int" in function '
    '"g"\\n  "x" is not assignable to "int\']\n'
)
# A file-level comment that turns off the errors the sinks raise.
PRAGMA = """\
# pyright: reportCallIssue=false, reportArgumentType=false
# mypy: disable-error-code="literal-string, arg-type, call-overload"
import os
import sqlite3


def run(cmd: str, conn: sqlite3.Connection) -> None:
    os.system(cmd)  # LS201
    conn.execute(cmd)  # LS101
"""
# Code the checker does not evaluate: unverified, never proven.
SKIPPED = """\
import os
from typing import TYPE_CHECKING, NoReturn


def fail() -> NoReturn:
    print("not really")  # it returns: the annotation is wrong, the code below runs
    return  # type: ignore[misc]


def guarded(cmd: str) -> None:
    if not TYPE_CHECKING:
        os.system(cmd)  # not-evaluated


def after(cmd: str, flag: bool) -> None:
    if flag:
        fail()
        os.system(cmd)  # not-evaluated
"""


def _marks(text: str) -> dict[int, str]:
    return {
        number: line.rsplit("# ", 1)[1]
        for number, line in enumerate(text.splitlines(), 1)
        if line.rstrip().endswith(("# LS101", "# LS201", "# not-evaluated"))
    }


def _outcomes(document: dict[str, Any], file: str) -> tuple[dict[int, str], dict[int, str]]:
    findings = {f["line"]: f["rule"] for f in document["findings"] if f["path"].endswith(file)}
    listed = document.get("unverified", [])
    unverified = {u["line"]: u["reason"] for u in listed if u["path"].endswith(file)}
    return findings, unverified


def _check(name: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    files = {"app.py": APP, "aliases.py": ALIASES, "pragma.py": PRAGMA, "skipped.py": SKIPPED}
    _, document = check_project(name, folder, files, capsys, "--show-unverified")
    return document


def _assert_evidence(document: dict[str, Any]) -> None:
    for file, text in (("app.py", APP), ("pragma.py", PRAGMA), ("skipped.py", SKIPPED)):
        findings, unverified = _outcomes(document, file)
        for line, mark in _marks(text).items():
            if mark.startswith("LS"):
                assert findings.get(line) == mark, (file, line, document["findings"])
            else:
                assert unverified.get(line) == mark, (file, line, document["unverified"])
    calls = document["sink_calls"]
    marked = sum(len(_marks(t)) for t in (APP, PRAGMA, SKIPPED))
    assert calls["total"] == marked
    assert calls["proven"] == 0


@pytest.mark.parametrize("name", CHECKERS)
def test_no_injection_is_proven(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _assert_evidence(_check(name, tmp_path, capsys))


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("LANG", "de-DE.UTF-8"),
        ("LANGUAGE", "ja"),
        ("VSCODE_NLS_CONFIG", '{"locale":"de"}'),
        ("LC_ALL", "de_DE.UTF-8"),
    ],
)
@pytest.mark.parametrize("name", ["pyright", "basedpyright"])
def test_the_users_language_changes_nothing(
    name: str,
    variable: str,
    value: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pyright words its messages in the user's language: the verdicts are the same."""
    monkeypatch.setenv(variable, value)
    _assert_evidence(_check(name, tmp_path, capsys))


def test_a_project_module_cannot_stand_in_for_the_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The probe module's name and the judge's carry a secret of the user's cache: a module of
    the project named like the probe module of an earlier version, or a function named like
    the judge, proves nothing."""
    impostor = (
        "class TlsLiteral: ...\n"
        "def judge(value: object) -> TlsLiteral: ...\n"
        "def typing_literalstring_judge(value: object) -> TlsLiteral: ...\n"
    )
    files = {
        "_typing_literalstring_probe.py": impostor,
        "_tls_probe.py": impostor,
        "app.py": (
            "import os\n"
            "from _tls_probe import judge as typing_literalstring_judge, TlsLiteral\n"
            "def run(cmd: str) -> None:\n"
            "    os.system(cmd)  # LS201\n"
        ),
    }
    _, document = check_project("pyright", tmp_path, files, capsys)
    findings, _ = _outcomes(document, "app.py")
    assert findings == {4: "LS201"}


def test_the_gate_fails_a_run_with_an_unverified_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--fail-on-unverified` (or `fail-on-unverified = true` in the table) fails a run in which
    a sink call is unverified, though it has no finding; `--no-fail-on-unverified` wins over
    the table."""
    files = {"skipped.py": SKIPPED}
    status, document = check_project("pyright", tmp_path, files, capsys)
    assert status == 0
    assert document["findings"] == []
    assert document["sink_calls"]["unverified"] == 2
    status, _ = check_project("pyright", tmp_path, files, capsys, "--fail-on-unverified")
    assert status == 1
    pyproject = tmp_path / "pyproject.toml"
    table = "\n[tool.typing-literalstring]\nfail-on-unverified = true\n"
    original = pyproject.read_text()
    from typing_literalstring.commands.cli import main

    pyproject.write_text(original + table)
    folder = str(tmp_path / "skipped.py")
    cache = ["--cache-dir", str(tmp_path / "cache")]
    assert main(["check", "--format", "json", *cache, folder]) == 1
    assert main(["check", "--format", "json", "--no-fail-on-unverified", *cache, folder]) == 0
    capsys.readouterr()
