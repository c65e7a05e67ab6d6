"""A baseline: today's findings, recorded so that `check` fails only on new ones.

Each finding is recorded by its file (relative to the project root), rule, sink and the
fingerprint of its statement and of the statements that build the text it receives
(``statements.Statements.fingerprint``, ``flow``), not by its line, so a recorded finding
still matches after the code around it moved or was reformatted, and no longer does when the
line that builds its query changed.  Matching is a multiset: two identical calls in one file
need two entries.  basedpyright's baseline is the model.

Version 1 fingerprinted the statement alone (the part of a version 2 fingerprint before its
``:``).  Such an entry is still read, and matches a finding by its statement alone, as it did;
the run says how many entries are of that kind, and writing the baseline again makes them
version 2 entries.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from typing_literalstring.core.errors import BaselineError
from typing_literalstring.core.project import root_relative
from typing_literalstring.core.safe_write import checked_target, write_text_atomically

if TYPE_CHECKING:
    from typing_literalstring.analysis.findings import CheckResult, Finding

DEFAULT = Path(".typing-literalstring") / "baseline.json"
VERSION = 2
# The versions this one reads (1: fingerprints of the statement alone).
READ = (1, 2)

# Whether a run reports findings of a rule (its id) in a file (root-relative): the baseline's
# entries of what it does not report are neither matched, nor stale, nor dropped on writing.
Reports = Callable[[str, str], bool]


def _everything(_path: str, _rule: str) -> bool:
    return True


@dataclass(frozen=True, order=True)
class Entry:
    path: str  # relative to the project root, with forward slashes
    rule: str
    sink: str
    fingerprint: str

    @property
    def statement_only(self) -> bool:
        """Written before version 2: the statement's fingerprint, without the flow's."""
        return ":" not in self.fingerprint

    def of_statement(self) -> Entry:
        """The entry as version 1 wrote it."""
        return replace(self, fingerprint=self.fingerprint.split(":", 1)[0])


@dataclass(frozen=True)
class Recorded:
    """A finding as the baseline sees it: its entry, and where it is now."""

    entry: Entry
    line: int


def load(path: Path) -> list[Entry]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("version") not in READ:
            raise ValueError(
                f"version {document.get('version')!r}, expected one of {', '.join(map(str, READ))}"
            )
        return [
            Entry(str(e["path"]), str(e["rule"]), str(e["sink"]), str(e["fingerprint"]))
            for e in document["findings"]
        ]
    except OSError as error:
        raise BaselineError(f"cannot read the baseline {path}: {error.strerror}") from error
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise BaselineError(
            f"the baseline {path} is not one this version wrote ({error}); write it again "
            "with `typing-literalstring check --write-baseline`"
        ) from error


def split(
    found: Sequence[Recorded], entries: Iterable[Entry], checked: Iterable[str]
) -> tuple[list[int], list[int], int]:
    """Which of ``found`` are new and which are in the baseline (indexes into ``found``), and
    how many entries for the ``checked`` files matched nothing (fixed or changed code)."""
    remaining = Counter(entries)
    new: list[int] = []
    known: list[int] = []
    for index, item in enumerate(found):
        # The entry as this version writes it, else as version 1 wrote it (the statement
        # alone): a version 2 entry is never matched by its statement alone.
        for key in (item.entry, item.entry.of_statement()):
            if remaining[key] > 0:
                remaining[key] -= 1
                known.append(index)
                break
        else:
            new.append(index)
    paths = set(checked)
    stale = sum(count for entry, count in remaining.items() if entry.path in paths and count > 0)
    return new, known, stale


def write(
    path: Path,
    found: Sequence[Recorded],
    kept: Iterable[Entry],
    checker: str,
    *,
    project: Path | None = None,
) -> int:
    """Record ``found`` and the ``kept`` entries (of files this run did not check); returns how
    many entries the file holds.  Written to a temporary file first: never half a baseline; an
    existing file keeps its mode.  With ``project`` (its root), a symbolic link in it on the way
    to ``path`` that leads outside it is refused before anything is written."""
    lines = {item.entry: item.line for item in found}
    entries = sorted([*(item.entry for item in found), *kept])
    document: dict[str, Any] = {
        "version": VERSION,
        "tool": "typing-literalstring",
        "checker": checker,
        "findings": [
            {
                "path": e.path,
                "rule": e.rule,
                "sink": e.sink,
                "fingerprint": e.fingerprint,
                **({"line": lines[e]} if e in lines else {}),  # for people; not matched on
            }
            for e in entries
        ],
    }
    target = path if project is None else checked_target(project, path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(target, json.dumps(document, indent=2) + "\n", prefix=".baseline-")
    except OSError as error:
        raise BaselineError(f"cannot write the baseline {path}: {error}") from error
    return len(entries)


def _recorded(result: CheckResult, findings: Sequence[Finding]) -> list[Recorded]:
    return [
        Recorded(
            Entry(root_relative(f.path, result.project), f.rule.id, f.sink, f.fingerprint), f.line
        )
        for f in findings
    ]


def _checked(result: CheckResult) -> set[str]:
    return {root_relative(p, result.project) for p in result.paths}


def _note(text: str) -> None:
    print(f"typing-literalstring: note: {text}", file=sys.stderr)


def use(
    result: CheckResult,
    path: Path,
    reports: Reports = _everything,
    note: Callable[[str], None] = _note,
) -> None:
    """Set apart the findings ``path`` records; count its entries that match nothing (of
    the rules and files this run ``reports``).  ``note`` is told of version 1 entries."""
    found = _recorded(result, result.findings)
    entries = [e for e in load(path) if reports(e.path, e.rule)]
    old = sum(1 for e in entries if e.statement_only)
    if old:
        note(
            f"{old} entr{'y' if old == 1 else 'ies'} of the baseline {path} "
            f"{'was' if old == 1 else 'were'} written before version 2 and match"
            f"{'es' if old == 1 else ''} a finding by its statement alone, not by the "
            "statements that build its text: a changed line that builds a baselined query is "
            "not reported.  Review the findings, then write the baseline again "
            "(`typing-literalstring check --write-baseline`)"
        )
    new, known, stale = split(found, entries, _checked(result))
    result.baseline = path
    result.baselined = [result.findings[i] for i in known]
    result.findings = [result.findings[i] for i in new]
    result.stale_baseline_entries = stale


def record(result: CheckResult, path: Path, reports: Reports = _everything) -> int:
    """Write ``path`` from this run's findings, keeping what it holds for files this run did
    not check and for rules it does not ``report``; the findings become baselined.  Returns
    how many entries the file holds."""
    checked = _checked(result)
    kept = (
        [e for e in load(path) if e.path not in checked or not reports(e.path, e.rule)]
        if path.is_file()
        else []
    )
    count = write(
        path, _recorded(result, result.findings), kept, result.checker, project=result.project
    )
    result.baseline = path
    result.baselined = result.findings
    result.findings = []
    return count


def refuse_missing(path: Path) -> None:
    """A baseline named (by --baseline or the configuration) must be there to be used."""
    if not path.is_file():
        raise BaselineError(
            f"no baseline at {path}: write one with `typing-literalstring check "
            "--write-baseline`, or give --no-baseline"
        )


def apply(
    result: CheckResult,
    chosen: Path | None,
    write: bool,
    reports: Reports = _everything,
) -> tuple[int, Path] | None:
    """``check``'s baseline: with ``write``, record the findings (how many, and where);
    else set apart those the baseline (``chosen``, else the project's default one, if there)
    accepts.  ``reports``: the selection the findings were filtered by."""
    path = chosen or result.project / DEFAULT
    if write:
        if result.unparsable:
            raise BaselineError(
                "not writing the baseline: some files were not checked (they do not parse, or "
                "they or their folder cannot be read), so their findings are unknown; fix them "
                "first"
            )
        return record(result, path, reports), path
    if chosen is not None or path.is_file():
        refuse_missing(path)
        use(result, path, reports)
    return None
