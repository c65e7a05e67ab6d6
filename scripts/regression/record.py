"""Per-checker records of deviations (test_cases/results/<checker>.toml), diffed with a run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import tomlkit

from .matrix import CASES, Outcome

RESULTS = CASES / "results"
UNEXPLAINED = "unexplained"


@dataclass(frozen=True, order=True)
class Recorded:
    file: str
    line: int
    kind: str
    targets: tuple[str, ...]
    source: str = field(compare=False)
    reason: str = field(compare=False)


@dataclass(frozen=True)
class Record:
    checker: str
    version: str
    targets: tuple[str, ...]  # the targets the record covers
    deviations: tuple[Recorded, ...]


def target_key(target: str) -> tuple[int, ...]:
    return tuple(int(p) for p in target.split("."))


def results_path(checker: str, results: Path | None = None) -> Path:
    return (results or RESULTS) / f"{checker}.toml"


def load_record(checker: str, results: Path | None = None) -> Record | None:
    path = results_path(checker, results)
    if not path.is_file():
        return None
    document = tomlkit.parse(path.read_text(encoding="utf-8")).unwrap()
    deviations = tuple(
        Recorded(
            str(item["file"]),
            int(item["line"]),
            str(item["kind"]),
            tuple(str(t) for t in item["targets"]),
            str(item.get("source", "")),
            str(item.get("reason", UNEXPLAINED)),
        )
        for item in document.get("deviation", [])
    )
    targets = tuple(str(t) for t in document.get("targets", []))
    return Record(checker, str(document.get("version", "")), targets, deviations)


def group(outcomes: Sequence[Outcome]) -> dict[tuple[str, int, str], list[str]]:
    """Each deviation of a run with the targets it happens on."""
    grouped: dict[tuple[str, int, str], list[str]] = {}
    for outcome in outcomes:
        for deviation in outcome.deviations:
            key = (deviation.file, deviation.line, deviation.kind)
            grouped.setdefault(key, []).append(outcome.target)
    return grouped


def write_record(
    checker: str,
    version: str,
    outcomes: Sequence[Outcome],
    reason: str | None = None,
    results: Path | None = None,
) -> Path:
    """Rewrite the record from this run, keeping what it says of targets that did not run."""
    old = load_record(checker, results)
    ran = {o.target for o in outcomes}
    kept_targets: set[str] = set(old.targets) - ran if old else set()
    reasons = {(r.file, r.source, r.kind): r.reason for r in old.deviations} if old else {}
    entries: dict[tuple[str, int, str], tuple[set[str], str, str]] = {}
    for item in old.deviations if old else ():
        kept = set(item.targets) - ran
        if kept:
            entries[(item.file, item.line, item.kind)] = (kept, item.source, "")
    for outcome in outcomes:
        for d in outcome.deviations:
            targets, _, _ = entries.get((d.file, d.line, d.kind), (set(), "", ""))
            entries[(d.file, d.line, d.kind)] = (targets | {outcome.target}, d.source, d.message)
    document = tomlkit.document()
    document.add(tomlkit.comment(f"How {checker} deviates from the # E markers in test_cases/."))
    document.add(
        tomlkit.comment(
            f"Regenerate: python scripts/run_test_cases.py --checker {checker} --update"
        )
    )
    document.add("checker", checker)
    document.add("version", version)
    document.add("targets", sorted(kept_targets | ran, key=target_key))
    deviations: list[dict[str, object]] = []
    for (file, line, kind), (targets, source, message) in sorted(entries.items()):
        entry: dict[str, object] = {
            "file": file,
            "line": line,
            "kind": kind,
            "targets": sorted(targets, key=target_key),
            "source": source,
        }
        if message:
            entry["message"] = message
        entry["reason"] = reasons.get((file, source, kind), reason or UNEXPLAINED)
        deviations.append(entry)
    if deviations:
        document.add("deviation", tomlkit.item(deviations))
    path = results_path(checker, results)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tomlkit.dumps(document), encoding="utf-8")
    return path


def differences(
    checker: str, outcomes: Sequence[Outcome], results: Path | None = None
) -> list[str]:
    """How a run differs from the record, one line each; empty when it matches."""
    record = load_record(checker, results)
    ran = {o.target for o in outcomes}
    if record is None:
        return [
            f"no record for {checker}: run with --update to write {results_path(checker, results)}"
        ]
    lines = [
        f"not in the record: {checker} {target} (run with --update)"
        for target in sorted(ran - set(record.targets), key=target_key)
    ]
    expected: dict[tuple[str, int, str], set[str]] = {}
    for item in record.deviations:
        targets = set(item.targets) & ran
        if targets:
            expected[(item.file, item.line, item.kind)] = targets
    actual = {key: set(targets) for key, targets in group(outcomes).items()}
    for key in sorted(set(expected) | set(actual)):
        before, now = expected.get(key, set()), actual.get(key, set())
        file, line, kind = key
        for label, targets in (
            ("new deviation", now - before),
            ("no longer deviates", before - now),
        ):
            if targets:
                on = ", ".join(sorted(targets, key=target_key))
                lines.append(f"{label}: {checker} {file}:{line} {kind} (on {on})")
    return lines
