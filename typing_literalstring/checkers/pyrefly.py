"""pyrefly: only a complete replacement typeshed carries the overlay."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typing_literalstring.checkers.base import Checker
from typing_literalstring.checkers.pyright import TYPESHED_DONORS
from typing_literalstring.checkers.run_values import Diagnostic, Invocation, absolute_path
from typing_literalstring.core import interpreter

_PYREFLY_MODULES = re.compile(r"\bINFO (?P<count>[\d,]+) modules? \(")
# What it says, with exit status 1 and no JSON report, when every file given is excluded.
_PYREFLY_NOTHING_MATCHED = "No Python files matched"


class Pyrefly(Checker):
    typeshed_donors = TYPESHED_DONORS  # its typeshed is compiled in: build from pyright's
    name = "pyrefly"
    revealed_around = ("revealed type: ", "")
    distribution = "pyrefly"
    # Its bundled typeshed describes Python 3.10 and newer; older targets are modelled wrongly.
    oldest_target = (3, 10)
    needs_full_typeshed = True

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        command = [
            *self.executable(),
            "check",
            "--output-format=json",
            # The number of files it checked ("3 modules"), on stderr: see analysed().
            "--summary",
        ]
        asked = interpreter.asked(run.python)
        if asked is not None and run.project is None:
            # The check asked the interpreter already (core.interpreter): what pyrefly would
            # ask it is given instead.  Not in a project's configuration (doctor's run), which
            # may set some of it: there pyrefly asks for what is missing, as it would.
            command.append("--skip-interpreter-query")
            command += [f"--site-package-path={p}" for p in asked.pyrefly_site_packages]
            if run.python_version is None:
                command.append(f"--python-version={asked.version}")
            if run.platform is None:
                command.append(f"--python-platform={asked.platform}")
        else:
            command.append(f"--python-interpreter-path={run.python}")
        if run.project is None:
            config = run.workdir / "pyrefly.toml"
            config.write_text('preset = "default"\n', encoding="utf-8")
            command.append(f"--config={config}")
            # Files given by name are still matched against pyrefly's default excludes
            # (**/node_modules, **/__pycache__, **/venv/**): a project below a folder named
            # venv was "No Python files matched", one file in node_modules silently left out.
            # This replaces them with our configuration's, which has none.
            command.append("--disable-project-excludes-heuristics")
        elif self._config(run.project) is not None:
            # Named outright: pyrefly looks for it from each checked file's folder upward.
            command.append(f"--config={self._config(run.project)}")
        else:
            # Without a configuration pyrefly uses its lenient "basic" preset, which reports
            # no LiteralString error at all; the "default" preset turns checking on.
            command.append("--preset=default")
        if run.python_version is not None:
            command.append(f"--python-version={run.python_version}")
        if run.platform is not None:
            command.append(f"--python-platform={run.platform}")
        if run.overlay is not None:
            command.append(f"--typeshed-path={run.overlay}")
        command.extend(f"--search-path={p}" for p in run.extra_paths)
        # A folder outside the configuration's own folder matches nothing for pyrefly; a glob
        # of its Python files does.
        files = [str(f) if not f.is_dir() else str(f / "**" / "*.py") for f in run.files]
        return [*command, *files], {}

    fewer_files_cause = (
        "a `project-excludes` of the configuration it read, or its default excludes "
        "(**/node_modules, **/__pycache__, **/venv/**) matching a folder above the files, or a "
        "broken installation"
    )

    def analysed(self, stdout: str, output: str) -> int | None:
        if _PYREFLY_NOTHING_MATCHED in output:
            return 0
        match = _PYREFLY_MODULES.search(output)
        return int(match["count"].replace(",", "")) if match is not None else None

    @staticmethod
    def _config(project: Path) -> Path | None:
        pyproject = project / "pyproject.toml"
        if (project / "pyrefly.toml").is_file():
            return project / "pyrefly.toml"
        if pyproject.is_file() and "[tool.pyrefly]" in pyproject.read_text("utf-8"):
            return pyproject
        return None

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        start = stdout.find("{")
        if start < 0:
            raise ValueError("no JSON report in pyrefly's output")
        report = json.loads(stdout[start:])
        return [
            Diagnostic(
                path=absolute_path(item["path"], cwd),
                line=int(item["line"]),
                column=int(item["column"]),
                severity=str(item["severity"]),
                # The full description: for "no matching overload" it names the closest
                # overload's parameter types, which the concise one leaves out.
                message=str(item.get("description") or item["concise_description"]),
                code=str(item.get("name", "")),
            )
            for item in report["errors"]
        ]
