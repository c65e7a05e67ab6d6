"""Checkers see ``typing_literalstring.LiteralString`` as the very special form of ``typing``.

The same probe, importing LiteralString from ``typing_literalstring``, ``typing`` (3.11+) and
``typing_extensions``, must draw identical diagnostics from each checker, on the oldest and the
newest Python target it supports.  The probe's `# E` lines are also checked, so that two
variants cannot agree merely by all making LiteralString mean ``Any``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS, Checker, Diagnostic

PROBE = Path(__file__).parent / "data" / "equivalence_probe.py"
SOURCES = {
    "ours": "from typing_literalstring import LiteralString",
    "typing": "from typing import LiteralString",
    "typing_extensions": "from typing_extensions import LiteralString",
}
# mypy maps typing.LiteralString to plain str (mypy issue 12554): it rejects nothing.
NOT_ENFORCING = {"mypy"}


def _targets(checker: Checker) -> list[str]:
    return [".".join(map(str, checker.oldest_target)), ".".join(map(str, checker.newest_target))]


CASES = [(name, target) for name, c in CHECKERS.items() for target in _targets(c)]


def _expected_lines() -> list[int]:
    lines = PROBE.read_text(encoding="utf-8").splitlines()
    return [n for n, text in enumerate(lines, 1) if re.search(r"#\s*E\s*$", text)]


def _key(diagnostic: Diagnostic) -> tuple[int, int, str, str, str]:
    return (
        diagnostic.line,
        diagnostic.column,
        diagnostic.severity,
        diagnostic.code,
        diagnostic.message,
    )


@pytest.mark.parametrize(("checker_name", "target"), CASES)
def test_same_diagnostics_as_typing(checker_name: str, target: str, tmp_path: Path) -> None:
    checker = CHECKERS[checker_name]
    if not checker.is_installed():
        pytest.skip(f"{checker_name} is not installed")
    template = PROBE.read_text(encoding="utf-8")
    assert SOURCES["ours"] in template
    variants = dict(SOURCES)
    if tuple(int(p) for p in target.split(".")) < (3, 11):
        del variants["typing"]  # typing has no LiteralString before 3.11
    files: dict[str, Path] = {}
    for variant, import_line in variants.items():
        path = tmp_path / f"probe_{variant}.py"
        path.write_text(template.replace(SOURCES["ours"], import_line), encoding="utf-8")
        files[variant] = path
    result = checker.run(list(files.values()), python_version=target, workdir=tmp_path / "work")
    by_file: dict[str, list[tuple[int, int, str, str, str]]] = {
        variant: [_key(d) for d in result.diagnostics if d.path == str(path.resolve())]
        for variant, path in files.items()
    }
    for variant in variants:
        assert by_file[variant] == by_file["ours"], f"{variant} differs from typing_literalstring"

    flagged = {line for line, _, severity, _, _ in by_file["ours"] if severity == "error"}
    expected = set(_expected_lines())
    if checker_name in NOT_ENFORCING:
        # A known fact, not a pass: mypy does not enforce LiteralString at all.
        assert flagged & expected == set(), f"{checker_name} now rejects LiteralString misuse"
    else:
        assert expected <= flagged, f"unflagged # E lines: {sorted(expected - flagged)}"
