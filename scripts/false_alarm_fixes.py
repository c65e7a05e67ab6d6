"""How each false alarm of the detection benchmark is fixed: each safe case with a recorded fix,
the fix applied, checked again by `check` with every enforcing checker; and, when the detection
benchmark ran, how many flagged safe cases have no recorded fix, by checker (counted, not said
from memory).

`benchmarks/fixes.json` holds, for each such case, the fix in one sentence (a helper of
typing_literalstring.sql or .shell, a LiteralString annotation, or query parameters), the edits
that apply it to the corpus file (each must match exactly once, so a changed case cannot go
unnoticed), and why a checker that still flags the fixed copy does so.  The fixed copies are
written to a temporary folder; a cell is the number of findings left on one.

    python scripts/benchmark.py --fixes     # replaces that section of BENCHMARKS.md
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from typing_literalstring.checkers import CHECKERS, enforcing  # noqa: E402
from typing_literalstring.commands.check import run_check  # noqa: E402

CORPUS = REPO / "benchmarks" / "corpus"
FIXES = REPO / "benchmarks" / "fixes.json"
HEADING = "### How each false alarm is fixed"


@dataclass(frozen=True)
class Twin:
    path: Path  # the fixed copy (or, for a check of the original, the corpus file)
    case: str  # the corpus case it fixes, e.g. "sql/017_allowlist_dict_of_literals.py"
    fix: str
    still_flagged: Mapping[str, str] = field(default_factory=lambda: {})  # checker -> why


def _fixed_text(case: str, entry: Mapping[str, Any]) -> str:
    text = (CORPUS / case).read_text(encoding="utf-8")
    for old, new in entry["replace"]:
        if text.count(old) != 1:
            raise SystemExit(
                f"benchmarks/fixes.json: the fix for {case} no longer applies: {old!r}"
            )
        text = text.replace(old, new)
    if entry.get("import"):
        lines = text.splitlines(keepends=True)
        header = next(i for i, line in enumerate(lines) if not line.startswith("# "))
        lines.insert(header, entry["import"] + "\n")
        text = "".join(lines)
    return text


def load_twins(into: Path) -> list[Twin]:
    """Write each fixed copy under ``into`` (as ``<family>/<case>.py``)."""
    twins: list[Twin] = []
    for entry in json.loads(FIXES.read_text(encoding="utf-8")):
        case = str(entry["case"])
        path = into / case
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_fixed_text(case, entry), encoding="utf-8")
        twins.append(Twin(path, case, str(entry["fix"]), dict(entry.get("still_flagged", {}))))
    return twins


def findings_left(checker_name: str, twins: Sequence[Twin], cache: Path) -> dict[Path, int]:
    checker = enforcing(CHECKERS[checker_name])
    result = run_check(checker, [t.path for t in twins], python_version="3.12", cache_dir=cache)
    left = {t.path.resolve(): 0 for t in twins}
    for finding in result.findings:
        left[Path(finding.path).resolve()] += 1
    return left


def _others(twins: Sequence[Twin], flagged_safe: Mapping[str, set[str]] | None) -> str:
    """What the detection run says of the false alarms that have no recorded fix."""
    if flagged_safe is None:
        return (
            "The false alarms without a recorded fix are counted by the detection benchmark "
            "(`python scripts/benchmark.py`)."
        )
    covered = {t.case for t in twins}
    others: dict[str, set[str]] = {}
    for checker, cases in flagged_safe.items():
        for case in cases - covered:
            others.setdefault(case, set()).add(checker)
    if not others:
        return "Every safe case that a checker flags in the detection run has a recorded fix."
    per_checker = {
        name: sum(1 for flagged_by in others.values() if name in flagged_by)
        for name in flagged_safe
    }
    counts = ", ".join(f"{name} {count}" for name, count in per_checker.items() if count)
    alone = {next(iter(c)) for c in others.values() if len(c) == 1}
    shared = sum(1 for c in others.values() if len(c) > 1)
    said = (
        f"{len(others)} other safe cases are flagged in the detection run without a recorded "
        f"fix (by checker: {counts}); "
    )
    if shared == 0 and len(alone) == 1:
        return said + f"each by {next(iter(alone))} alone."
    return said + f"{shared} of them by more than one checker."


def section(
    checkers: Sequence[str], flagged_safe: Mapping[str, set[str]] | None = None
) -> list[str]:
    """``flagged_safe``: checker -> the safe cases it flags in the detection run, if one ran."""
    installed = [c for c in checkers if CHECKERS[c].is_installed()]
    with tempfile.TemporaryDirectory(prefix="tls-fixes-") as work:
        twins = load_twins(Path(work) / "fixed")
        left = {c: findings_left(c, twins, Path(work) / "cache") for c in installed}
    lines = [
        HEADING,
        "",
        "Each safe case with a recorded fix (`benchmarks/fixes.json`), the fix applied, checked "
        "again: the findings left, per checker. " + _others(twins, flagged_safe),
        "",
        f"| case | fix | {' | '.join(installed)} |",
        f"|---|---|{'---|' * len(installed)}",
    ]
    reasons: list[str] = []
    for twin in twins:
        cells: list[str] = []
        for name in installed:
            count = left[name][twin.path.resolve()]
            cells.append(str(count))
            if count:
                why = twin.still_flagged.get(name, "UNEXPLAINED")
                reasons.append(f"- {name}, `{twin.case}`: {why}")
        lines.append(f"| `{twin.case}` | {twin.fix} | {' | '.join(cells)} |")
    return [*lines, *(["", *reasons] if reasons else [])]
