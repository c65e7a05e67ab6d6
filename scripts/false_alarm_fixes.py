"""How each false alarm of the detection benchmark is fixed: each safe case that a checker
other than zuban flags, with one fix applied, checked again by `check` with every enforcing
checker.

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


def section(checkers: Sequence[str]) -> list[str]:
    installed = [c for c in checkers if CHECKERS[c].is_installed()]
    with tempfile.TemporaryDirectory(prefix="tls-fixes-") as work:
        twins = load_twins(Path(work) / "fixed")
        left = {c: findings_left(c, twins, Path(work) / "cache") for c in installed}
    lines = [
        HEADING,
        "",
        "Each safe case that a checker other than zuban flags, with one fix applied "
        "(`benchmarks/fixes.json`), checked again: the findings left, per checker. The other "
        "false alarms are zuban's alone and share one cause: zuban types an unannotated name "
        "by its first assignment, as mypy does, so a name assigned from literals is `str`; "
        "annotating it `LiteralString` fixes each.",
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
