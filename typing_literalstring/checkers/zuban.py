"""zuban: MYPYPATH carries the overlay; mypy-style output."""

from __future__ import annotations

import re
from pathlib import Path

from typing_literalstring.checkers.base import Checker
from typing_literalstring.checkers.run_values import Diagnostic, Invocation, mypy_style_diagnostics

_CHECKED_SOURCE_FILES = re.compile(
    r"^(?:Success: no issues found in |Found .*\(checked )(?P<count>\d+) source files?\)?$",
    re.MULTILINE,
)


class Zuban(Checker):
    name = "zuban"
    checks_past_syntax_errors = True
    distribution = "zuban"
    bundled_typeshed = "zuban/third_party/typeshed"

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        # `zuban check` (its own mode) enforces LiteralString; `zuban mypy` mimics mypy and
        # does not.
        command = [*self.executable(), "check"]
        if run.project is None:
            config = run.workdir / "zuban.ini"  # isolated: an empty configuration
            config.write_text("[mypy]\n", encoding="utf-8")
            command.append(f"--config-file={config}")
        command += ["--show-column-numbers", "--no-pretty", f"--python-executable={run.python}"]
        if run.python_version is not None:
            command.append(f"--python-version={run.python_version}")
        if run.platform is not None:
            command.append(f"--platform={run.platform}")
        command.extend(str(f) for f in run.files)
        return command, {"MYPYPATH": run.search_path()} if run.search_path() else {}

    fewer_files_cause = "an `exclude` of the configuration it read, or a broken installation"

    def analysed(self, stdout: str, output: str) -> int | None:
        # mypy's summary line, which a configuration may turn off (error_summary = false).
        match = _CHECKED_SOURCE_FILES.search(stdout)
        return int(match["count"]) if match is not None else None

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        return mypy_style_diagnostics(stdout, cwd)


# pyrefly --summary, on stderr: "INFO 3 modules (19 dependent modules); 17,850 lines ...".
# Measured: a module per distinct file given (a.py and a.pyi are two), none for an excluded one.
