"""The checker's environment is fixed (issue 42 item 2, issue 43 item 7): the user's language
and colour settings change what the checkers print (pyright and basedpyright word their
messages in the user's language; ty and zuban colour piped output when told to), and `check`
reads that output.  Under either, the README's example must give exactly the findings and
sink-call outcomes it gives in a clean environment, with every checker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Tuple

import pytest

from tests.installed import installed_checker
from typing_literalstring.checkers import COMMAND_CHECKERS
from typing_literalstring.commands.cli import main
from typing_literalstring.core.processes import child_environment

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "vulnerable_app.py"

# Every variable that a test sets or the environment is made of, unset for the clean run.
TOUCHED = (
    "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "VSCODE_NLS_CONFIG",
    "FORCE_COLOR", "CLICOLOR_FORCE", "MYPY_FORCE_COLOR", "NO_COLOR", "TERM",
)  # fmt: skip
# A German or Japanese developer's machine, and VS Code's terminal (VSCODE_NLS_CONFIG).  Set
# together, pyright reads VSCODE_NLS_CONFIG first; each one alone is tried with pyright below.
LANGUAGES = {
    "LANG": "de-DE.UTF-8",
    "LANGUAGE": "ja",
    "VSCODE_NLS_CONFIG": '{"locale":"de"}',
    "LC_ALL": "de_DE.UTF-8",
}
# A CI service or a terminal that asks for colour.
COLOURS = {"FORCE_COLOR": "1", "CLICOLOR_FORCE": "1", "TERM": "xterm-256color"}

Outcome = Tuple[Any, ...]


def _check(name: str, cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> Outcome:
    status = main(
        ["check", "--checker", name, "--cache-dir", str(cache_dir), "--format", "json",
         str(EXAMPLE)]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 1, err
    document = json.loads(out)
    findings = sorted(
        (f["rule"], f["path"], f["line"], f["column"], f["sink"]) for f in document["findings"]
    )
    return status, findings, document["sink_calls"]


_CLEAN: dict[str, Outcome] = {}


def _clean(name: str, cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> Outcome:
    """The example's outcome with none of the variables set (once per checker)."""
    if name not in _CLEAN:
        with pytest.MonkeyPatch.context() as patch:
            for variable in TOUCHED:
                patch.delenv(variable, raising=False)
            _CLEAN[name] = _check(name, cache_dir, capsys)
    return _CLEAN[name]


@pytest.mark.parametrize("group", ["languages", "colours"])
@pytest.mark.parametrize("name", sorted(COMMAND_CHECKERS))
def test_the_findings_do_not_depend_on_language_or_colour(
    name: str,
    group: str,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    installed_checker(name)
    expected = _clean(name, cache_dir, capsys)
    # The README's example: its 9 sink calls give 6 findings (2 SQL, 1 logging, 3 shell), a
    # wrapper's inner call being reported at the calls of main() that reach it.
    assert len(expected[1]) == 6
    for variable, value in (LANGUAGES if group == "languages" else COLOURS).items():
        monkeypatch.setenv(variable, value)
    assert _check(name, cache_dir, capsys) == expected


@pytest.mark.parametrize("variable", sorted(set(LANGUAGES) - {"VSCODE_NLS_CONFIG"}))
def test_each_language_variable_alone_with_pyright(
    variable: str,
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """pyright takes the first of LC_ALL, LC_MESSAGES, LANG, LANGUAGE that is set: the group
    above tries VSCODE_NLS_CONFIG, which it reads before them."""
    installed_checker("pyright")
    expected = _clean("pyright", cache_dir, capsys)
    for other in TOUCHED:
        monkeypatch.delenv(other, raising=False)
    # LANGUAGE=ja alone would name a language pyright has; de_DE is read as "de".
    monkeypatch.setenv(variable, {"LC_ALL": "de-DE.UTF-8"}.get(variable, LANGUAGES[variable]))
    assert _check("pyright", cache_dir, capsys) == expected


def test_the_environment_names_no_language_or_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """What every checker process gets, whatever ours holds."""
    for variable, value in {**LANGUAGES, **COLOURS, "LC_MESSAGES": "fr_FR.UTF-8"}.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv("MYPY_FORCE_COLOR", "1")
    env = child_environment({"MYPYPATH": "/x"})
    assert {k: env.get(k) for k in TOUCHED} == {
        "LANG": "C.UTF-8",
        "LANGUAGE": None,
        "LC_ALL": "C.UTF-8",
        "LC_MESSAGES": None,
        "VSCODE_NLS_CONFIG": None,
        "FORCE_COLOR": None,
        "CLICOLOR_FORCE": None,
        "MYPY_FORCE_COLOR": None,
        "NO_COLOR": "1",
        "TERM": "dumb",
    }
    assert env["MYPYPATH"] == "/x"
