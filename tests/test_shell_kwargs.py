"""A shell function called without `shell=` but with a `**mapping` that may hold it (issue 44,
item 7): ghp-import 2.1.0's `sp.Popen(self.cmd, **kwargs)` after `kwargs['shell'] =
self.use_shell` starts a shell with `self.cmd` whenever the mapping says so.  Where the function
shows it giving the mapping a "shell" key, the command is judged as that of `shell=<an
expression>`; where the mapping's keys are out of view (pre-commit 4.7.0's
`subprocess.Popen(cmd, **kwargs)` forwarding its own `**kwargs`), nothing shows a shell, and a
command that is no literal is counted unverified, never a finding.  A mapping the function
builds itself without `shell` still starts none (tests/test_unseen_shapes.py), and a command
inside the mapping is out of view, counted unverified."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.checking import marked_rules
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands.cli import main

# Each line's expected outcome ends it: `# LS201` a finding, `# proven`, `# unverified:
# <reason>`; a sink-looking line without one is no sink call.
SHAPES = """\
import subprocess as sp
from typing import Any, Dict, List, Tuple


class Git:  # ghp-import 2.1.0's, unannotated
    def __init__(self, cmd, use_shell=False):
        self.cmd = cmd
        self.use_shell = use_shell
        kwargs = dict(stdin=sp.PIPE, stdout=sp.PIPE, stderr=sp.PIPE, universal_newlines=False)
        if self.use_shell:
            kwargs["shell"] = self.use_shell
        self.pipe = sp.Popen(self.cmd, **kwargs)  # unverified: shell-mapping


class TypedGit:
    def __init__(self, cmd: str, use_shell: bool = False) -> None:
        self.cmd = cmd
        kwargs = dict(stdin=sp.PIPE, stdout=sp.PIPE, stderr=sp.PIPE, universal_newlines=False)
        if use_shell:
            kwargs["shell"] = use_shell
        self.pipe = sp.Popen(self.cmd, **kwargs)  # LS201


def status(**kwargs: Any) -> None:
    sp.Popen("git status", **kwargs)  # proven
    sp.run(["git", "status"], **kwargs)  # proven


def built(cmd: str, use_shell: bool) -> None:
    options = dict(cwd=".", shell=use_shell)
    sp.Popen(cmd, **options)  # LS201


def displayed(cmd: str, use_shell: bool) -> None:
    options = {"cwd": ".", "shell": use_shell}
    sp.Popen(cmd, **options)  # LS201


def defaulted(cmd: str, use_shell: bool, **kwargs: Any) -> None:
    kwargs.setdefault("shell", use_shell)
    sp.check_output(args=cmd, **kwargs)  # LS201


def updated(cmd: str, use_shell: bool, **kwargs: Any) -> None:
    kwargs.update(shell=use_shell)
    sp.call(cmd, **kwargs)  # LS201


def merged(cmd: str, use_shell: bool, **kwargs: Any) -> None:
    kwargs.update({"shell": use_shell})
    sp.check_call(cmd, **kwargs)  # LS201


def listed_shell(name: str, argv: List[str], use_shell: bool, **options: Any) -> None:
    options["shell"] = use_shell
    sp.run(["git", name], **options)  # LS201
    sp.run(argv, **options)  # LS201


def forwarded(cmd: str, **kwargs: Any) -> None:
    sp.check_output(args=cmd, **kwargs)  # unverified: shell-mapping


def listed(name: str, argv: List[str], options: Dict[str, Any]) -> None:
    sp.run(["git", name], **options)  # unverified: shell-mapping
    sp.run(argv, **options)  # unverified: shell-mapping


def normalize_cmd(cmd: Tuple[str, ...], env: Any = None) -> Tuple[str, ...]:
    return cmd


def _setdefault_kwargs(kwargs: Dict[str, Any]) -> None:
    for arg in ("stdin", "stdout", "stderr"):
        kwargs.setdefault(arg, sp.PIPE)


def cmd_output_b(*cmd: str, check: bool = True, **kwargs: Any) -> None:  # pre-commit 4.7.0's
    _setdefault_kwargs(kwargs)
    cmd = normalize_cmd(cmd, env=kwargs.get("env"))
    sp.Popen(cmd, **kwargs)  # unverified: shell-mapping


def cmd_output_p(*cmd: str, **kwargs: Any) -> None:  # the same, its second shape
    cmd = normalize_cmd(cmd)
    kwargs.update({"stdin": sp.DEVNULL, "stdout": sp.PIPE, "stderr": sp.PIPE})
    sp.Popen(cmd, **kwargs)  # unverified: shell-mapping


OPTIONS: Dict[str, Any] = {}


class Starter:
    def __init__(self, options: Dict[str, Any]) -> None:
        self.options = options

    def start(self, cmd: str, made: Any) -> None:
        sp.Popen(cmd, **self.options)  # unverified: shell-mapping
        sp.Popen(cmd, **made())  # unverified: shell-mapping
        sp.Popen(cmd, **OPTIONS)  # unverified: shell-mapping
        sp.Popen("git status", **self.options)  # proven


def piped(cmd: str, cwd: Any) -> None:
    kwargs = {"cwd": cwd}
    sp.Popen(cmd, **kwargs)
    typed: Dict[str, Any] = {"cwd": cwd}
    typed["stdout"] = sp.PIPE
    sp.run(cmd, **typed)


def delegated(runner: Any, cmd: str, **kwargs: Any) -> None:
    runner.run(cmd, **kwargs)  # invoke's or fabric's `run`, say: no subprocess


def hidden(cmd: str, cwd: Any, **options: Any) -> None:
    sp.Popen(**options)  # unverified: not-in-view
    spread: Dict[str, Any] = {"args": cmd, "shell": True}
    sp.Popen(**spread)  # unverified: not-in-view
    own: Dict[str, Any] = {"args": cmd, "cwd": cwd}
    sp.Popen(**own)
"""


def _marked(text: str, word: str) -> dict[int, str]:
    """Line -> what follows `# <word>` at its end."""
    return {
        n: found.group(1)
        for n, line in enumerate(text.splitlines(), 1)
        for found in [re.search(rf"  # {word}:? ?([\w-]*)$", line)]
        if found is not None
    }


def _line(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


@pytest.fixture(scope="module", params=["pyright", "mypy"])
def checked(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """`check --format json --show-unverified` of SHAPES, once per checker for every test."""
    name: str = request.param
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    folder = tmp_path_factory.mktemp(f"shapes-{name}")
    (folder / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n')
    (folder / "app.py").write_text(SHAPES, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(
            ["check", "--checker", name, "--format", "json", "--show-unverified",
             "--cache-dir", str(folder / "cache"), str(folder / "app.py")]
        )  # fmt: skip
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


def test_ghp_imports_shape_unannotated_is_counted_unverified(checked: dict[str, Any]) -> None:
    line = _line(SHAPES, "self.pipe = sp.Popen(self.cmd, **kwargs)  # unverified")
    reasons = [(u["reason"], u["detail"]) for u in checked["unverified"] if u["line"] == line]
    assert len(reasons) == 1
    reason, detail = reasons[0]
    assert reason == "shell-mapping"
    assert "`**kwargs` may turn on the shell" in detail
    assert not [f for f in checked["findings"] if f["line"] == line]


# The calls whose function gives their mapping a "shell" key, each way it may.
_SHOWN = (
    "sp.Popen(self.cmd, **kwargs)  # LS201",  # kwargs["shell"] = ...
    "sp.Popen(cmd, **options)  # LS201",  # dict(..., shell=...), {"shell": ...}
    "sp.check_output(args=cmd, **kwargs)  # LS201",  # kwargs.setdefault("shell", ...)
    "sp.call(cmd, **kwargs)  # LS201",  # kwargs.update(shell=...)
    "sp.check_call(cmd, **kwargs)  # LS201",  # kwargs.update({"shell": ...})
)


def _lines(fragment: str) -> list[int]:
    return [n for n, line in enumerate(SHAPES.splitlines(), 1) if fragment in line]


def test_a_str_command_with_a_shell_key_in_view_is_a_finding(checked: dict[str, Any]) -> None:
    findings = {f["line"]: f for f in checked["findings"]}
    lines = [n for fragment in _SHOWN for n in _lines(fragment)]
    assert len(lines) == 6
    for line in lines:
        finding = findings[line]
        assert finding["rule"] == "LS201"
        # The evidence made it (pyright's own error at the first said nothing of the shell).
        assert finding["evidence"].endswith("may turn on the shell"), line


def test_a_list_command_follows_shell_given_an_expression(checked: dict[str, Any]) -> None:
    findings = {f["line"]: f for f in checked["findings"]}
    for fragment in ('sp.run(["git", name], **options)  # LS', "sp.run(argv, **options)  # LS"):
        finding = findings[_line(SHAPES, fragment)]
        assert finding["rule"] == "LS201"
        assert "`**options` may turn on the shell" in " ".join(finding["checker_messages"])


def test_a_command_whose_mappings_keys_are_out_of_view_is_unverified(
    checked: dict[str, Any],
) -> None:
    """pre-commit 4.7.0's `subprocess.Popen(cmd, **kwargs)` (`cmd: tuple[str, ...]`, its own
    `**kwargs` forwarded) and the like: nothing shows a shell, so no finding, only a count."""
    lines = [n for n, reason in _marked(SHAPES, "unverified").items() if reason == "shell-mapping"]
    lines.remove(_line(SHAPES, "self.pipe = sp.Popen(self.cmd, **kwargs)  # unverified"))
    assert len(lines) == 8
    unverified = {u["line"]: u for u in checked["unverified"]}
    for line in lines:
        assert unverified[line]["reason"] == "shell-mapping"
        assert unverified[line]["detail"].endswith(
            "may turn on the shell: its keys are not in view"
        )
    assert not [f for f in checked["findings"] if f["line"] in lines]
    pre_commits = _lines("sp.Popen(cmd, **kwargs)  # unverified")
    assert len(pre_commits) == 2
    for line in pre_commits:
        assert re.search(r"`cmd` is [Tt]uple\[str, \.\.\.\]", unverified[line]["detail"])


def test_every_shape_has_its_outcome_and_nothing_else_counts(checked: dict[str, Any]) -> None:
    assert {(f["line"], f["rule"]) for f in checked["findings"]} == marked_rules(SHAPES)
    assert {u["line"]: u["reason"] for u in checked["unverified"]} == _marked(SHAPES, "unverified")
    proven = len(_marked(SHAPES, "proven"))
    assert checked["sink_calls"] == {
        "total": proven + len(marked_rules(SHAPES)) + len(_marked(SHAPES, "unverified")),
        "proven": proven,
        "with_findings": len(marked_rules(SHAPES)),
        "unverified": len(_marked(SHAPES, "unverified")),
        "unverified_by_reason": dict(Counter(_marked(SHAPES, "unverified").values())),
    }
    assert checked["sink_calls"]["unverified_by_reason"] == {"not-in-view": 2, "shell-mapping": 9}


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("sp.Popen(self.cmd, **kwargs)", "in view"),  # a parameter: its caller's
        ("sp.Popen(self.cmd, **self.options)", "in view"),  # an attribute: anyone's
        ("sp.Popen(args=cmd, **kwargs)", "in view"),
        ("sp.Popen(cmd, **shelled)", "in view"),  # built here, given "shell"
        ("Popen(cmd, **kwargs)", "in view"),  # `from subprocess import Popen`
        ("subprocess.check_output(cmd, **kwargs)", "in view"),  # imported in the function
        ("runner.run(cmd, **kwargs)", None),  # invoke's or fabric's run: no shell keyword
        ("sp.Popen(cmd, shell=False, **kwargs)", None),  # the call itself says no
        ("sp.Popen(cmd)", None),
        ("sp.Popen(cmd, **local)", None),  # built here without "shell"
        ("sp.Popen(cmd, **typed)", None),  # the same, annotated
        ("sp.Popen(**kwargs)", "hidden"),  # the command is in the mapping too
        ("sp.Popen(*argv, **kwargs)", "hidden"),
        ("sp.Popen(**local)", None),  # no shell: an argument list, whatever it holds
    ],
)
def test_a_shell_functions_text_where_a_mapping_may_turn_on_the_shell(
    source: str, text: str | None
) -> None:
    from typing_literalstring.analysis.sink_texts import (
        shell_mapping,
        subprocess_callees,
        text_argument,
        unpacked_text,
    )
    from typing_literalstring.specs.sinks import callee_name

    module = ast.parse(
        "import subprocess as sp\nfrom subprocess import PIPE, Popen\n\n\n"
        "def f(self, cmd, argv, runner, **kwargs):\n"
        "    import subprocess\n"
        '    local = {"cwd": cmd}\n    typed: dict = {"cwd": cmd}\n    typed["env"] = {}\n'
        '    shelled = dict(cwd=cmd)\n    shelled["shell"] = True\n'
        f"    {source}\n"
    )
    function = module.body[-1]
    assert isinstance(function, ast.FunctionDef)
    statement = function.body[-1]
    assert isinstance(statement, ast.Expr)
    call = statement.value
    assert isinstance(call, ast.Call)
    name = callee_name(call.func) or ""
    mapping = shell_mapping(call, function, subprocess_callees(module))
    argument = text_argument(call, name, mapping)
    hidden = unpacked_text(call, name, function) if argument is None else None
    found = "in view" if argument is not None else "hidden" if hidden is not None else None
    assert found == text
    if text == "in view":
        # No `shell=` in view: the mapping is what makes the call a shell's.
        assert mapping is not None


def test_a_file_whose_shell_is_only_in_a_mapping_is_probed() -> None:
    """The cheap text filter keeps the file: `shell=` is nowhere in its text."""
    from typing_literalstring.analysis.probes import may_need_probes

    assert may_need_probes(SHAPES.split("class TypedGit")[0])


def test_the_json_schema_lists_the_unverified_reasons_and_no_other() -> None:
    """`shell-mapping` is new; `not-evaluated`, `not-asked`, `not-in-view` and `inexact` were
    missing: a document with one of them failed docs/schema/check-output.schema.json.  And
    `not-revealed`, which nothing has produced since the judge (4d60384), was still listed."""
    from typing_literalstring.analysis.findings import UNVERIFIED_REASONS

    schema = json.loads(
        (Path(__file__).resolve().parent.parent / "docs/schema/check-output.schema.json").read_text(
            encoding="utf-8"
        )
    )
    enum: list[str] = schema["$defs"]["unverified_reason"]["enum"]
    assert sorted(enum) == sorted(UNVERIFIED_REASONS)


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ('kwargs["shell"] = flag', True),  # ghp-import 2.1.0's
        ('if flag:\n        kwargs["shell"] = flag', True),
        ('kwargs = dict(cwd=".", shell=flag)', True),
        ('kwargs = {"cwd": ".", "shell": flag}', True),
        ('kwargs: dict = {"shell": flag}', True),
        ('kwargs = dict({"shell": flag})', True),
        ('kwargs.setdefault("shell", flag)', True),
        ("kwargs.update(shell=flag)", True),
        ('kwargs.update({"shell": flag})', True),
        ('kwargs |= {"shell": flag}', True),
        ("pass", False),  # pre-commit 4.7.0's forwarded **kwargs
        ('kwargs.update({"stdin": None})', False),  # pre-commit's other keys
        ("kwargs.update(extra)", False),  # keys out of view: may, not shown
        ('kwargs["cwd"] = "."', False),
        ("kwargs[key] = flag", False),
        ("kwargs.setdefault(key, flag)", False),
        ('other["shell"] = flag', False),  # another mapping
        ('def inner(kwargs):\n        kwargs["shell"] = flag', False),  # another scope's
    ],
)
def test_a_shell_key_in_view(body: str, shown: bool) -> None:
    from typing_literalstring.analysis.sink_texts import shell_in_view

    module = ast.parse(
        "import subprocess\n\n\n"
        "def f(cmd, flag, key, extra, other, **kwargs):\n"
        f"    {body}\n"
        "    subprocess.Popen(cmd, **kwargs)\n"
    )
    function = module.body[-1]
    assert isinstance(function, ast.FunctionDef)
    statement = function.body[-1]
    assert isinstance(statement, ast.Expr)
    assert isinstance(statement.value, ast.Call)
    mapping = statement.value.keywords[0].value
    assert shell_in_view(mapping, function) is shown


def test_an_attribute_or_a_calls_mapping_shows_no_key() -> None:
    """Only a name the function gives "shell" shows it; `self.options` set elsewhere in the
    class, or a call's result, keeps its keys out of view."""
    from typing_literalstring.analysis.sink_texts import shell_in_view

    module = ast.parse(
        "def f(self, cmd, made):\n"
        '    self.options["shell"] = True\n'
        "    Popen(cmd, **self.options)\n"
        "    Popen(cmd, **made())\n"
    )
    function = module.body[0]
    assert isinstance(function, ast.FunctionDef)
    for statement in function.body[1:]:
        assert isinstance(statement, ast.Expr)
        assert isinstance(statement.value, ast.Call)
        assert not shell_in_view(statement.value.keywords[0].value, function)
