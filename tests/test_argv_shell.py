"""Finding shells started through argument lists, and instrumenting them without moving code."""

from __future__ import annotations

import ast

import pytest

from typing_literalstring.specs import argv_shell


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


def _in_function(body: str) -> str:
    lines = "".join(f"    {line}\n" for line in body.strip("\n").splitlines())
    return f"import os, subprocess\ndef f(name: str, flag: bool) -> None:\n{lines}"


@pytest.mark.parametrize(
    ("body", "scripts"),
    [
        # The example: a branch per platform, the script appended after.
        (
            'args = []\nif os.name == "nt":\n    args += ["cmd.exe", "/c"]\nelse:\n'
            '    args.append("sh")\n    args.append("-c")\nargs.append(f"echo {name}")\n'
            "subprocess.run(args)",
            ["f'echo {name}'"],
        ),
        ('args = ["sh", "-c"]\nargs.append(name)\nsubprocess.run(args)', ["name"]),
        ('args = ["bash"]\nargs.extend(["-c", name])\nsubprocess.call(args)', ["name"]),
        ('args = ["-c", name]\nargs.insert(0, "sh")\nsubprocess.run(args)', ["name"]),
        (
            'args = ["sh"]\nargs += ["-lc"]\nargs += [name]\nsubprocess.run(args, check=True)',
            ["name"],
        ),
        ('base = ["sh", "-c"]\nargs = base + [name]\nsubprocess.run(args)', []),  # two names
        ('args = ["sh", "-c"]\nargs = args + [name]\nsubprocess.Popen(args)', ["name"]),
        ('subprocess.run(["sh", "-c"] + [name])', ["name"]),
        ('args = ["sh", "-c", name]\nos.execv("/bin/sh", args)', ["name"]),
        (
            'args = ["sh", "-c"]\nif flag:\n    args.append("ls")\nelse:\n    args.append(name)\n'
            "subprocess.run(args)",
            ["name"],
        ),
        # The call sits in a branch: only what runs before it counts.
        (
            'args = ["sh", "-c"]\nif flag:\n    args.append(name)\n    subprocess.run(args)',
            ["name"],
        ),
        (
            'args = ["sh", "-c"]\nfor part in [name]:\n    args.append(part)\nsubprocess.run(args)',
            ["part"],
        ),
    ],
)
def test_lists_built_step_by_step_are_followed(body: str, scripts: list[str]) -> None:
    assert _scripts(_in_function(body)) == scripts


@pytest.mark.parametrize(
    "body",
    [
        'args = ["sh", "-c"]\nargs.append("ls -l")\nsubprocess.run(args)',  # literal script
        'args = ["sh", "-c", \'echo "$1"\', "sh"]\nargs.append(name)\nsubprocess.run(args)',
        'args = ["ls", "-l"]\nargs.append(name)\nsubprocess.run(args)',  # no shell
        'args = ["sh", "-c"]\nsubprocess.run(args)\nargs.append(name)',  # appended after
        'args = ["sh", "-c", name]\nargs = ["ls", name]\nsubprocess.run(args)',  # replaced
        'args = ["sh", "-c", name]\nargs.pop()\nsubprocess.run(args)',  # not followed
        "args = get_args()\nargs.append(name)\nsubprocess.run(args)",  # not followed
        'args = ["sh", "-c", name]\nargs[2] = "ls"\nsubprocess.run(args)',  # not followed
        'args = ["sh", "-c", name]\nargs, rest = ["ls"], 1\nsubprocess.run(args)',  # unpacked
        'args = ["sh", "-c", name]\nfor args in [["ls"]]:\n    pass\nsubprocess.run(args)',
    ],
)
def test_safe_or_unknown_lists_stay_silent(body: str) -> None:
    assert _scripts(_in_function(body)) == []


def test_a_lambda_has_calls_but_no_statements() -> None:
    """invoke 3.0.3 has lambdas: walking their body as statements crashed `check`."""
    code = _in_function('run = lambda: subprocess.run(["sh", "-c", name])\nrun()')
    assert _scripts(code) == ["name"]
    assert _scripts("import subprocess\nf = lambda cmd: subprocess.run(['sh', '-c', cmd])\n") == [
        "cmd"
    ]
