"""Run type checkers over test_cases/ with our overlay wired in, and hold them to the markers.

Every line marked ``# E`` must draw an error from the checker; no unmarked line may draw one
(``# E?`` lines may go either way).  Where a checker cannot match the markers, each deviation is
recorded in ``test_cases/results/<checker>.toml`` with its reason; a run fails when the checker's
behaviour differs from that record, whether it got worse or better, so any change is noticed.

    python scripts/run_test_cases.py                       # every installed checker, all targets
    python scripts/run_test_cases.py --checker pyright --target 3.12
    python scripts/run_test_cases.py --checker mypy --update --reason "..."   # rewrite a record
    python scripts/run_test_cases.py --checker pyright --stock   # no overlay: what typeshed gives

Files named ``*_strict.py`` run with the strict profile's overlay, the others with the default.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tempfile
import tokenize
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import tomlkit

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from typing_literalstring.checkers import CHECKERS, Checker, Diagnostic  # noqa: E402
from typing_literalstring.errors import TypingLiteralStringError  # noqa: E402
from typing_literalstring.overlay import build_overlay  # noqa: E402

CASES = REPO / "test_cases"
RESULTS = CASES / "results"
TARGETS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14"]
UNEXPLAINED = "unexplained"
MISSING = "missing"  # a `# E` line without an error
UNEXPECTED = "unexpected"  # an error on a line that is not marked
_MARKER = re.compile(r"^#\s*E(?P<optional>\?)?(?=$|[\s:])")


@dataclass(frozen=True)
class Markers:
    required: frozenset[int]  # lines marked `# E`
    optional: frozenset[int]  # lines marked `# E?`
    source: tuple[str, ...]  # the file's lines, for the record


def read_markers(path: Path) -> Markers:
    text = path.read_text(encoding="utf-8")
    required: set[int] = set()
    optional: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            match = _MARKER.match(token.string)
            if match:
                (optional if match["optional"] else required).add(token.start[0])
    return Markers(frozenset(required), frozenset(optional), tuple(text.splitlines()))


@dataclass(frozen=True, order=True)
class Deviation:
    file: str
    line: int
    kind: str  # MISSING or UNEXPECTED
    source: str = field(compare=False)
    message: str = field(compare=False, default="")


@dataclass
class Outcome:
    """What one checker did on one Python target."""

    checker: str
    target: str
    expected: int = 0  # `# E` lines
    matched: int = 0
    deviations: list[Deviation] = field(default_factory=lambda: [])


def case_files(profile: str) -> list[Path]:
    files = sorted(CASES.glob("check_*.py"))
    strict = [f for f in files if f.stem.endswith("_strict")]
    return strict if profile == "strict" else [f for f in files if f not in strict]


def base_typeshed(checker: Checker) -> Path:
    """The typeshed an overlay for ``checker`` is built from: its own where it has files."""
    if checker.bundled_typeshed is not None:
        return checker.typeshed_dir()
    raise TypingLiteralStringError(
        f"{checker.name} has no typeshed files to build an overlay from; it is not supported by "
        "this runner yet"
    )


def run_target(checker: Checker, target: str, workdir: Path, *, stock: bool) -> Outcome:
    outcome = Outcome(checker.name, target)
    for profile in ("default", "strict"):
        files = case_files(profile)
        if not files:
            continue
        overlay = None if stock else workdir / f"overlay-{profile}"
        result = checker.run(
            files, python_version=target, overlay=overlay, workdir=workdir / f"{target}-{profile}"
        )
        for path in files:
            _compare(outcome, path, [d for d in result.diagnostics if d.path == str(path)])
    return outcome


def _compare(outcome: Outcome, path: Path, diagnostics: Sequence[Diagnostic]) -> None:
    markers = read_markers(path)
    errors: dict[int, str] = {}
    for diagnostic in diagnostics:
        if diagnostic.severity == "error":
            errors.setdefault(diagnostic.line, diagnostic.message.splitlines()[0])
    name = path.name
    outcome.expected += len(markers.required)
    for line in sorted(markers.required):
        if line in errors:
            outcome.matched += 1
        else:
            outcome.deviations.append(Deviation(name, line, MISSING, _code(markers, line)))
    for line, message in sorted(errors.items()):
        if line not in markers.required and line not in markers.optional:
            outcome.deviations.append(
                Deviation(name, line, UNEXPECTED, _code(markers, line), message)
            )


def _code(markers: Markers, line: int) -> str:
    return markers.source[line - 1].split("#", 1)[0].strip()


def run_checker(
    checker: Checker, targets: Iterable[str], *, stock: bool = False, jobs: int = 2
) -> list[Outcome]:
    wanted = [t for t in targets if checker.supports_target(t)]
    with tempfile.TemporaryDirectory(prefix=f"tls-{checker.name}-") as tmp:
        workdir = Path(tmp)
        # Build both overlays once, before the targets run in parallel.
        if not stock:
            for profile in ("default", "strict"):
                build_overlay(
                    base_typeshed(checker), workdir / f"overlay-{profile}", profile=profile
                )

        def run(target: str) -> Outcome:
            return run_target(checker, target, workdir, stock=stock)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(run, wanted))


# ---------------------------------------------------------------------------- the record


@dataclass(frozen=True, order=True)
class Recorded:
    file: str
    line: int
    kind: str
    targets: tuple[str, ...]
    source: str = field(compare=False)
    reason: str = field(compare=False)


def group(outcomes: Sequence[Outcome]) -> dict[tuple[str, int, str], list[str]]:
    """Each deviation with the targets it happens on."""
    grouped: dict[tuple[str, int, str], list[str]] = {}
    for outcome in outcomes:
        for deviation in outcome.deviations:
            grouped.setdefault((deviation.file, deviation.line, deviation.kind), []).append(
                outcome.target
            )
    return grouped


def results_path(checker: str) -> Path:
    return RESULTS / f"{checker}.toml"


def load_record(checker: str) -> tuple[str, list[Recorded]]:
    path = results_path(checker)
    if not path.is_file():
        return "", []
    document = tomlkit.parse(path.read_text(encoding="utf-8")).unwrap()
    recorded = [
        Recorded(
            str(item["file"]),
            int(item["line"]),
            str(item["kind"]),
            tuple(str(t) for t in item["targets"]),
            str(item.get("source", "")),
            str(item.get("reason", UNEXPLAINED)),
        )
        for item in document.get("deviation", [])
    ]
    return str(document.get("version", "")), recorded


def write_record(checker: Checker, outcomes: Sequence[Outcome], reason: str | None) -> Path:
    """Rewrite the record from this run, keeping what it says of targets that did not run."""
    _, old = load_record(checker.name)
    ran = {o.target for o in outcomes}
    reasons = {(r.file, r.source, r.kind): r.reason for r in old}
    entries: dict[tuple[str, int, str], tuple[set[str], str, str]] = {}
    for item in old:
        kept = set(item.targets) - ran
        if kept:
            entries[(item.file, item.line, item.kind)] = (kept, item.source, "")
    for outcome in outcomes:
        for d in outcome.deviations:
            targets, _, _ = entries.setdefault((d.file, d.line, d.kind), (set(), d.source, ""))
            targets.add(outcome.target)
            entries[(d.file, d.line, d.kind)] = (targets, d.source, d.message)
    document = tomlkit.document()
    document.add(
        tomlkit.comment(f"How {checker.name} deviates from the # E markers in test_cases/.")
    )
    document.add(
        tomlkit.comment(
            f"Regenerate: python scripts/run_test_cases.py --checker {checker.name} --update"
        )
    )
    document.add("checker", checker.name)
    document.add("version", checker.version())
    deviations: list[dict[str, object]] = []
    for (file, line, kind), (targets, source, message) in sorted(entries.items()):
        entry: dict[str, object] = {
            "file": file,
            "line": line,
            "kind": kind,
            "targets": sorted(targets, key=_target_key),
            "source": source,
        }
        if message:
            entry["message"] = message
        entry["reason"] = reasons.get((file, source, kind), reason or UNEXPLAINED)
        deviations.append(entry)
    if deviations:
        document.add("deviation", tomlkit.item(deviations))
    path = results_path(checker.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tomlkit.dumps(document), encoding="utf-8")
    return path


def _target_key(target: str) -> tuple[int, ...]:
    return tuple(int(p) for p in target.split("."))


def differences(checker: str, outcomes: Sequence[Outcome]) -> list[str]:
    """How the run differs from the record, one line each; empty when it matches."""
    _, recorded = load_record(checker)
    ran = {o.target for o in outcomes}
    expected: dict[tuple[str, int, str], set[str]] = {}
    for item in recorded:
        targets = set(item.targets) & ran
        if targets:
            expected[(item.file, item.line, item.kind)] = targets
    actual = {key: set(targets) for key, targets in group(outcomes).items()}
    lines: list[str] = []
    for key in sorted(set(expected) | set(actual)):
        before, now = expected.get(key, set()), actual.get(key, set())
        file, line, kind = key
        for label, targets in (
            ("new deviation", now - before),
            ("no longer deviates", before - now),
        ):
            if targets:
                on = ", ".join(sorted(targets, key=_target_key))
                lines.append(f"{label}: {checker} {file}:{line} {kind} (on {on})")
    return lines


def summary(outcome: Outcome) -> str:
    missing = sum(1 for d in outcome.deviations if d.kind == MISSING)
    unexpected = len(outcome.deviations) - missing
    return (
        f"{outcome.checker:<12} {outcome.target:<5} # E lines: {outcome.expected}, matched: "
        f"{outcome.matched}, missing: {missing}, unexpected errors: {unexpected}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--checker", action="append", choices=sorted(CHECKERS))
    parser.add_argument("--target", action="append", choices=TARGETS)
    parser.add_argument("--update", action="store_true", help="rewrite the results files")
    parser.add_argument("--reason", help="with --update: the reason for new deviations")
    parser.add_argument("--stock", action="store_true", help="run without the overlay")
    parser.add_argument("--jobs", type=int, default=2, help="targets checked at once")
    args = parser.parse_args(argv)
    names: list[str] = args.checker or [n for n in CHECKERS if CHECKERS[n].bundled_typeshed]
    failed = False
    for name in names:
        checker = CHECKERS[name]
        if not checker.is_installed():
            print(f"{name:<12} SKIPPED: not installed (pip install {checker.distribution})")
            continue
        try:
            outcomes = run_checker(
                checker, args.target or TARGETS, stock=args.stock, jobs=args.jobs
            )
        except TypingLiteralStringError as error:
            print(f"{name:<12} ERROR: {error}", file=sys.stderr)
            failed = True
            continue
        for outcome in outcomes:
            print(summary(outcome))
        if args.stock:
            continue
        if args.update:
            print(f"wrote {write_record(checker, outcomes, args.reason)}")
            continue
        version, _ = load_record(name)
        if version and version != checker.version():
            print(f"note: the record is for {name} {version}; installed: {checker.version()}")
        diff = differences(name, outcomes)
        for line in diff:
            print(line)
        failed = failed or bool(diff)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
