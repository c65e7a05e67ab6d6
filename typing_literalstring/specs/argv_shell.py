"""Shells started through an argument list: ``subprocess.run(["sh", "-c", script])``.

No signature can see this injection: the list display is only ``list[str]``.  So the checker
judges an instrumented copy of the file, in which the script element of each such list is
wrapped in a call to a probe function whose parameter is ``LiteralString``; an error on that
call is the finding.  This module finds the lists, writes the copy and maps lines back.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath

from typing_literalstring.core.source_edits import byte_offsets, insert_at
from typing_literalstring.specs import argv_lists
from typing_literalstring.specs.sinks import callee_name

PROBE_MODULE = "_typing_literalstring_probe"
PROBE_FUNCTION = "typing_literalstring_shell_script"
# The reveal of a sink call's parts for mypy (analysis.sink_outcomes): mypy's own reveal_type
# writes LiteralString as str, the plugin's hook on this function does not
# (typing_literalstring/mypy/reveal.py names it too).
REVEAL_FUNCTION = "typing_literalstring_reveal"
PROBE_STUB = f"""from typing import TypeVar
from typing_extensions import LiteralString

_T = TypeVar("_T")

def {PROBE_FUNCTION}(script: LiteralString, /) -> str: ...
def {REVEAL_FUNCTION}(value: _T, tag: int, /) -> _T: ...
"""

_POSIX_SHELLS = {"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "busybox"}
_POSIX_FLAG = re.compile(r"-[A-Za-z]*c[A-Za-z]*")  # -c, -lc, -ec, -xc ...
_CMD_FLAGS = {"/c", "/k"}
_POWERSHELL_FLAGS = {"-c", "-command", "-commandwithargs"}

# Callee name -> index of the argument holding the argument list (a list or tuple display).
_LIST_ARGUMENT = {
    **dict.fromkeys(("run", "call", "check_call", "check_output", "Popen"), 0),
    **dict.fromkeys(("execv", "execve", "execvp", "execvpe", "posix_spawn", "posix_spawnp"), 1),
    **dict.fromkeys(("spawnv", "spawnve", "spawnvp", "spawnvpe"), 2),
}
# Callee name -> index of the first positional argument of an argument vector given inline.
_INLINE_ARGUMENTS = {
    "create_subprocess_exec": 0,
    "subprocess_exec": 1,
    **dict.fromkeys(("execl", "execle", "execlp", "execlpe"), 1),
    **dict.fromkeys(("spawnl", "spawnle", "spawnlp", "spawnlpe"), 2),
}


@dataclass(frozen=True)
class ShellInArgv:
    call: ast.Call  # the call that starts the process
    script: ast.expr  # the element the shell runs as a script


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _shell_family(program: str) -> str | None:
    name = PureWindowsPath(PurePosixPath(program).name).name.lower()
    name = name[: -len(".exe")] if name.endswith(".exe") else name
    if name in _POSIX_SHELLS:
        return "posix"
    if name == "cmd":
        return "cmd"
    if name in ("powershell", "pwsh"):
        return "powershell"
    return None


def _is_script_flag(family: str, flag: str) -> bool:
    if family == "posix":
        return _POSIX_FLAG.fullmatch(flag) is not None
    if family == "cmd":
        return flag.lower() in _CMD_FLAGS
    return flag.lower() in _POWERSHELL_FLAGS


def script_of(argv: list[ast.expr]) -> ast.expr | None:
    """The script element of an argument vector that starts a shell, or None."""
    items = list(argv)
    if items and (_literal(items[0]) or "").rsplit("/", 1)[-1] == "env":
        items = items[1:]
        while items and "=" in (_literal(items[0]) or ""):
            items = items[1:]  # env VAR=value sh -c ...
    if not items or isinstance(items[0], ast.Starred):
        return None
    program = _literal(items[0])
    family = _shell_family(program) if program is not None else None
    if family is None:
        return None
    for index, item in enumerate(items[1:], start=1):
        option = _literal(item)
        if option is None:
            return None  # a value we cannot read comes before the script flag
        if _is_script_flag(family, option):
            following = items[index + 1] if index + 1 < len(items) else None
            return None if isinstance(following, ast.Starred) else following
    return None


def _argvs_of(call: ast.Call, scope: list[ast.stmt]) -> list[list[ast.expr]]:
    """Each argument vector ``call`` may start a process with: a display, ``+`` of displays,
    or a list built step by step under a name (argv_lists.py)."""
    name = callee_name(call.func)
    if name in _INLINE_ARGUMENTS:
        return [list(call.args[_INLINE_ARGUMENTS[name] :])]
    if name not in _LIST_ARGUMENT:
        return []
    index = _LIST_ARGUMENT[name]
    argument: ast.expr | None = call.args[index] if len(call.args) > index else None
    if argument is None and index == 0:
        argument = next((k.value for k in call.keywords if k.arg == "args"), None)
    if isinstance(argument, ast.Name):
        return argv_lists.sequences_at(scope, argument.id, call) or []
    if isinstance(argument, (ast.List, ast.Tuple, ast.BinOp)):
        return argv_lists.displayed(argument) or []
    return []


def _scopes(tree: ast.AST) -> list[tuple[list[ast.stmt], list[ast.Call]]]:
    """Each function body (and the module's), with the calls made in it directly."""
    found: list[tuple[list[ast.stmt], list[ast.Call]]] = []
    owners: list[ast.AST] = [tree]
    while owners:
        owner = owners.pop()
        # A lambda's body is one expression: it has calls but no statements to follow.
        inner: ast.AST | list[ast.stmt] = getattr(owner, "body", [])
        body = inner if isinstance(inner, list) else []
        calls: list[ast.Call] = []
        stack: list[ast.AST] = list(inner) if isinstance(inner, list) else [inner]
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                owners.append(node)
                continue
            if isinstance(node, ast.Call):
                calls.append(node)
            stack.extend(ast.iter_child_nodes(node))
        found.append((body, calls))
    return found


# A string literal naming a shell program: a file without one cannot start a shell through an
# argument list, and needs no walk of its syntax tree.
_SHELL_NAMES = "|".join(sorted({*_POSIX_SHELLS, "cmd", "powershell", "pwsh"}))
_SHELL_PROGRAM = re.compile(
    r"[\"'](?:[^\"'\n]*[/\\])?(?:" + _SHELL_NAMES + r")(?:\.exe)?[\"']", re.IGNORECASE
)


def find(tree: ast.AST, source: str) -> list[ShellInArgv]:
    """The calls in ``source`` (parsed as ``tree``) that start a shell through an argument list."""
    if not may_start_a_shell(source):
        return []
    found: dict[tuple[int, int], ShellInArgv] = {}
    for scope, calls in _scopes(tree):
        for call in calls:
            for argv in _argvs_of(call, scope):
                script = script_of(argv)
                if script is not None and _literal(script) is None:
                    found[(id(call), id(script))] = ShellInArgv(call, script)
    return sorted(
        found.values(),
        key=lambda s: (s.call.lineno, s.call.col_offset, s.script.lineno, s.script.col_offset),
    )


def may_start_a_shell(source: str) -> bool:
    """Whether ``source`` names a shell program in a string: a file without one has no argument
    list that starts a shell (``find`` is then empty), and needs no syntax tree."""
    return _SHELL_PROGRAM.search(source) is not None


@dataclass(frozen=True)
class Instrumented:
    source: str
    inserted_line: int  # the import added at this line; later lines moved down by one

    def original_line(self, line: int) -> int:
        return line - 1 if line > self.inserted_line else line


def probe_insertions(
    source: str, tree: ast.Module, shells: list[ShellInArgv]
) -> tuple[list[tuple[int, bytes]], int]:
    """Where the probe goes: around each script, and its import (after the docstring and the
    ``from __future__`` imports, which must come first); (byte offset, text) each, and the
    line the import takes."""
    offsets = byte_offsets(source)
    insertions: list[tuple[int, bytes]] = []
    for script in {id(shell.script): shell.script for shell in shells}.values():
        assert script.end_lineno is not None
        assert script.end_col_offset is not None
        insertions.append(
            (offsets[script.lineno - 1] + script.col_offset, f"{PROBE_FUNCTION}(".encode())
        )
        insertions.append((offsets[script.end_lineno - 1] + script.end_col_offset, b")"))
    position, line = probe_import(source, tree, PROBE_FUNCTION)
    insertions.append(position)
    return insertions, line


def probe_import(source: str, tree: ast.Module, name: str) -> tuple[tuple[int, bytes], int]:
    """The import of a probe function from the probe module (after the docstring and the
    ``from __future__`` imports, which must come first): (byte offset, text), and the line the
    import takes.  ``name``: the function, or a whole import line (ending in a newline)."""
    offsets = byte_offsets(source)
    data = source.encode("utf-8")
    after = 0
    for index, statement in enumerate(tree.body):
        is_docstring = (
            index == 0
            and isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
        )
        if is_docstring or (
            isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
        ):
            after = statement.end_lineno or statement.lineno
        else:
            break
    position = offsets[after] if after < len(offsets) else len(data)
    prefix = b"" if position == 0 or data[position - 1 : position] == b"\n" else b"\n"
    line = (name if name.endswith("\n") else f"from {PROBE_MODULE} import {name}\n").encode()
    return (position, prefix + line), after + 1


def instrument(source: str, tree: ast.Module, shells: list[ShellInArgv]) -> Instrumented:
    """The source with each script wrapped in the probe, and the probe imported."""
    insertions, line = probe_insertions(source, tree, shells)
    return Instrumented(insert_at(source, insertions).text, line)
