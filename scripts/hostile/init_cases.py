"""The cases of issue 43, items 2 and 4: a checkout whose configuration misdirects `init`, or whose
committed overlay was loosened (--cases init of scripts/hostile_checkout.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from scripts.hostile.model import STATE, Step

# A pyrightconfig.json wins over [tool.pyright]: settings written into pyproject.toml then load
# nothing, and the team's own pyright passes.  JSON with comments and a trailing comma, as
# pyright reads it.
PYRIGHTCONFIG = (
    "{\n"
    "  // added by scripts/hostile_checkout.py: pyright reads this file, not [tool.pyright]\n"
    '  "typeCheckingMode": "standard",\n'
    "}\n"
)
SINK = ("sql: LiteralString", "sql: str")  # sqlite3's execute, loosened back to str


def init_steps(command: Sequence[str], project: Path) -> list[Step]:
    """Item 4: with a pyrightconfig.json added, `init` must write stubPath into it (and say
    so), and `doctor` must fail once it holds none while pyproject.toml still does.  Item 2:
    with a sink of the committed overlay loosened to `str`, `doctor` must fail naming the file
    (its probe alone said "loads our stubs: yes")."""
    config = project / "pyrightconfig.json"
    stub = project / STATE / "stubs" / "pyright" / "sqlite3" / "__init__.pyi"
    doctor = [*command, "doctor", "--checker", "pyright"]

    def add_config() -> None:
        config.write_text(PYRIGHTCONFIG, encoding="utf-8")

    def loosen_sink() -> None:
        text = stub.read_text(encoding="utf-8")
        stub.write_text(text.replace(*SINK), encoding="utf-8")

    return [
        Step(
            "init-pyrightconfig",
            [*command, "init"],
            project,
            {0},
            before=add_config,
            must_say="pyright reads pyrightconfig.json",
        ),
        Step(
            "doctor-misplaced",
            doctor,
            project,
            {2},
            before=add_config,  # the team's file again, without our stubPath
            must_say="but pyright reads pyrightconfig.json",
        ),
        Step("init-again", [*command, "init"], project, {0}),
        Step(
            "doctor-loosened",
            doctor,
            project,
            {2},
            before=loosen_sink,
            must_say="changed sqlite3/__init__.pyi",
        ),
    ]
