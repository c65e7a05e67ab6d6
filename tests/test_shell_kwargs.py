"""A shell function called without `shell=` but with a `**mapping` that may hold it (issue 44,
item 7): ghp-import 2.1.0's `sp.Popen(self.cmd, **kwargs)` after `kwargs['shell'] =
self.use_shell` starts a shell with `self.cmd` whenever the mapping says so.  Its command is
judged as that of `shell=<an expression>`; a mapping the function builds itself without
`shell` still starts none (tests/test_unseen_shapes.py), and a command inside the mapping is
out of view, counted unverified."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
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
from typing import Any, Dict, List


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


def forwarded(cmd: str, **kwargs: Any) -> None:
    sp.check_output(args=cmd, **kwargs)  # LS201


def listed(name: str, argv: List[str], options: Dict[str, Any]) -> None:
    sp.run(["git", name], **options)  # LS201
    sp.run(argv, **options)  # LS201


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


def test_a_str_command_with_a_mapping_that_may_hold_the_shell_is_a_finding(
    checked: dict[str, Any],
) -> None:
    findings = {f["line"]: f for f in checked["findings"]}
    for fragment in ("sp.Popen(self.cmd, **kwargs)  # LS201", "sp.check_output(args=cmd"):
        finding = findings[_line(SHAPES, fragment)]
        assert finding["rule"] == "LS201"
        # The evidence made it (pyright's own error at the first said nothing of the shell).
        assert finding["evidence"].endswith("may turn on the shell")


def test_a_list_command_follows_shell_given_an_expression(checked: dict[str, Any]) -> None:
    findings = {f["line"]: f for f in checked["findings"]}
    for fragment in ('sp.run(["git", name], **options)', "sp.run(argv, **options)"):
        finding = findings[_line(SHAPES, fragment)]
        assert finding["rule"] == "LS201"
        assert "`**options` may turn on the shell" in " ".join(finding["checker_messages"])


def test_every_shape_has_its_outcome_and_nothing_else_counts(checked: dict[str, Any]) -> None:
    assert {(f["line"], f["rule"]) for f in checked["findings"]} == marked_rules(SHAPES)
    assert {u["line"]: u["reason"] for u in checked["unverified"]} == _marked(SHAPES, "unverified")
    proven = len(_marked(SHAPES, "proven"))
    assert checked["sink_calls"] == {
        "total": proven + len(marked_rules(SHAPES)) + len(_marked(SHAPES, "unverified")),
        "proven": proven,
        "with_findings": len(marked_rules(SHAPES)),
        "unverified": len(_marked(SHAPES, "unverified")),
        "unverified_by_reason": {"not-in-view": 2, "shell-mapping": 1},
    }


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


def test_every_unverified_reason_is_in_the_json_schema() -> None:
    """`shell-mapping` is new; `not-evaluated`, `not-asked`, `not-in-view` and `inexact` were
    missing: a document with one of them failed docs/schema/check-output.schema.json."""
    from typing_literalstring.analysis.findings import UNVERIFIED_REASONS

    schema = json.loads(
        (Path(__file__).resolve().parent.parent / "docs/schema/check-output.schema.json").read_text(
            encoding="utf-8"
        )
    )
    assert set(UNVERIFIED_REASONS) <= set(schema["$defs"]["unverified_reason"]["enum"])
