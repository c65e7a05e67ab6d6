"""ty: ``--extra-search-path`` carries the overlay (its typeshed is compiled in)."""

from __future__ import annotations

import re
from pathlib import Path

from typing_literalstring.checkers.base import Checker
from typing_literalstring.checkers.pyright import TYPESHED_DONORS
from typing_literalstring.checkers.run_values import (
    Diagnostic,
    Invocation,
    mypy_style_diagnostics,
)

_TY_LINE = re.compile(
    r"^(?P<path>[^\n:]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning|info)"
    r"\[(?P<code>[^\]]+)\] (?P<message>.*)$"
)


class Ty(Checker):
    typeshed_donors = TYPESHED_DONORS  # its typeshed is compiled in: build from pyright's
    name = "ty"
    # No analysed(): ty prints no count of the files it checked ("All checks passed!"), but
    # for a log line of -v ("Indexed 2 file(s)").  Measured: it checks every file named on its
    # command line, configured excludes, .gitignore and node_modules alike.
    checks_past_syntax_errors = True
    reveals_overload_callees = True
    revealed_around = ("Revealed type: `", "`")
    lists_argument_types = False
    distribution = "ty"

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        command = [
            *self.executable(),
            "check",
            "--output-format=concise",
            "--no-progress",
            f"--python={run.python}",
            f"--project={run.cwd}",
        ]
        if run.python_version is not None:
            command.append(f"--python-version={run.python_version}")
        if run.platform is not None:
            command.append(f"--python-platform={run.platform}")
        paths = [*([run.overlay] if run.overlay else []), *run.extra_paths]
        command.extend(f"--extra-search-path={p}" for p in paths)
        return [*command, *(str(f) for f in run.files)], {}

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        return mypy_style_diagnostics(stdout, cwd, _TY_LINE)
