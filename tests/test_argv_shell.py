"""Finding shells started through argument lists, and instrumenting them without moving code."""

from __future__ import annotations

import ast

import pytest

from typing_literalstring import argv_shell


def _scripts(code: str) -> list[str]:
    tree = ast.parse(code)
    return [ast.unparse(s.script) for s in argv_shell.find(tree, code)]


@pytest.mark.parametrize(
    ("code", "script"),
    [
        ('subprocess.run(["sh", "-c", cmd])', "cmd"),
        ('subprocess.run(["/bin/bash", "-lc", f"ls {d}"], check=True)', "f'ls {d}'"),
        ('subprocess.Popen(args=("zsh", "-e", "-c", cmd))', "cmd"),
        ('subprocess.check_output(["env", "LC_ALL=C", "bash", "-c", cmd])', "cmd"),
        ('subprocess.call(["cmd.exe", "/c", cmd])', "cmd"),
        ('subprocess.run(["powershell", "-NoProfile", "-Command", cmd])', "cmd"),
        ('os.execv("/bin/sh", ["sh", "-c", cmd])', "cmd"),
        ('os.execlp("sh", "sh", "-c", cmd)', "cmd"),
        ('os.spawnl(os.P_WAIT, "/bin/sh", "sh", "-c", cmd)', "cmd"),
        ('asyncio.create_subprocess_exec("bash", "-c", cmd)', "cmd"),
        ('loop.subprocess_exec(Protocol, "sh", "-c", cmd)', "cmd"),
    ],
)
def test_shell_scripts_in_argument_lists_are_found(code: str, script: str) -> None:
    assert _scripts(code) == [script]


@pytest.mark.parametrize(
    "code",
    [
        'subprocess.run(["sh", "-c", "ls -l"])',  # a literal script is fine
        'subprocess.run(["ls", "-c", cmd])',  # not a shell
        'subprocess.run(["sh", script_file])',  # a script file, not a script
        'subprocess.run(["sh", option, "-c", cmd])',  # unknown option before the flag
        "subprocess.run(argv)",  # not a display
        'subprocess.run(["sh", "-c", *rest])',
        'subprocess.run(["sh", "-c", "echo $1", "sh", user])',  # value as a positional parameter
    ],
)
def test_other_argument_lists_are_left_alone(code: str) -> None:
    assert _scripts(code) == []


def test_instrumenting_keeps_lines_after_docstring_and_future_imports() -> None:
    source = (
        '"""Doc."""\n'
        "from __future__ import annotations\n"
        "import subprocess\n"
        "def f(cmd: str) -> None:\n"
        '    subprocess.run(["sh", "-c",\n'
        "                    cmd])\n"
    )
    tree = ast.parse(source)
    instrumented = argv_shell.instrument(source, tree, argv_shell.find(tree, source))
    lines = instrumented.source.splitlines()
    assert lines[2] == f"from {argv_shell.PROBE_MODULE} import {argv_shell.PROBE_FUNCTION}"
    assert lines[6] == f"                    {argv_shell.PROBE_FUNCTION}(cmd)])"
    assert instrumented.original_line(7) == 6
    assert instrumented.original_line(2) == 2
    compile(instrumented.source, "x.py", "exec")
