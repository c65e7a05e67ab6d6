"""Run one checker over the case files on each Python target and compare with the markers."""

from __future__ import annotations

import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from typing_literalstring.checkers import Checker, Diagnostic
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.overlay import build_overlay

from .markers import applies_to, profile_of, read_markers

REPO = Path(__file__).resolve().parent.parent.parent
CASES = REPO / "test_cases"
TARGETS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14"]
PROFILES = ("default", "strict")
MISSING = "missing"  # a `# E` line without an error
UNEXPECTED = "unexpected"  # an error on a line that is not marked


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
    files: list[str] = field(default_factory=lambda: [])
    deviations: list[Deviation] = field(default_factory=lambda: [])

    def summary(self) -> str:
        missing = sum(1 for d in self.deviations if d.kind == MISSING)
        unexpected = len(self.deviations) - missing
        return (
            f"{self.checker:<12} {self.target:<5} # E lines: {self.expected}, matched: "
            f"{self.matched}, missing: {missing}, unexpected errors: {unexpected}"
        )


def case_files(cases: Path = CASES) -> list[Path]:
    return sorted(cases.glob("check_*.py"))


def third_party_case_files(cases: Path = CASES) -> list[Path]:
    """The case files of third-party packages: ``test_cases/<distribution>/check_*.py``, the
    folder named as the package's specification folder (``stubs/<distribution>/``), or as a
    package typed with LiteralString itself (psycopg)."""
    return sorted(cases.glob("*/check_*.py"))


# Third-party cases run on the Python their packages are installed for: this interpreter's.
THIRD_PARTY_TARGET = f"{sys.version_info[0]}.{sys.version_info[1]}"


def compare(outcome: Outcome, path: Path, diagnostics: Sequence[Diagnostic]) -> None:
    """Add the file's matches and deviations to ``outcome``."""
    markers = read_markers(path)
    errors: dict[int, str] = {}
    for diagnostic in diagnostics:
        if diagnostic.severity == "error":
            errors.setdefault(diagnostic.line, diagnostic.message.splitlines()[0])
    name = path.name
    outcome.files.append(name)
    outcome.expected += len(markers.required)
    for line in sorted(markers.required):
        if line in errors:
            outcome.matched += 1
        else:
            outcome.deviations.append(Deviation(name, line, MISSING, markers.code(line)))
    for line, message in sorted(errors.items()):
        if line not in markers.required and line not in markers.optional:
            outcome.deviations.append(
                Deviation(name, line, UNEXPECTED, markers.code(line), message)
            )


def run_target(
    checker: Checker,
    target: str,
    files: Sequence[Path],
    overlays: dict[str, Path | None],
    work: Path,
) -> Outcome:
    outcome = Outcome(checker.name, target)
    for profile in PROFILES:
        batch = [f for f in files if profile_of(f) == profile and applies_to(f, target)]
        if not batch:
            continue
        result = checker.run(
            batch,
            python_version=target,
            overlay=overlays[profile],
            workdir=work / f"{target}-{profile}",
            # A case file may import a helper module beside it (`_idiom_constants.py`).
            extra_paths=sorted({path.parent for path in batch}),
        )
        for path in batch:
            compare(outcome, path, [d for d in result.diagnostics if d.path == str(path)])
    return outcome


def run_checker(
    checker: Checker,
    targets: Iterable[str] = TARGETS,
    *,
    stock: bool = False,
    jobs: int = 2,
    files: Sequence[Path] | None = None,
) -> list[Outcome]:
    """``checker`` on every target it supports, with the overlays (or ``stock`` typeshed)."""
    wanted = [t for t in targets if checker.supports_target(t)]
    chosen = [f.resolve() for f in (files if files is not None else case_files())]
    with tempfile.TemporaryDirectory(prefix=f"tls-{checker.name}-") as tmp:
        work = Path(tmp)
        overlays: dict[str, Path | None] = {profile: None for profile in PROFILES}
        if not stock:
            base = checker.overlay_base()
            layout = "full" if checker.needs_full_typeshed else "overlay"
            for profile in PROFILES:
                built = build_overlay(
                    base, work / f"overlay-{profile}", profile=profile, layout=layout
                )
                overlays[profile] = built.root

        def run(target: str) -> Outcome:
            return run_target(checker, target, chosen, overlays, work)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(run, wanted))


def run_third_party(
    checker: Checker, files: Sequence[Path] | None = None, *, stock: bool = False
) -> Outcome:
    """``checker`` on the third-party case files, for this interpreter's Python, with this
    environment's packages tightened as `check` tightens them (or, ``stock``, untouched).

    Raises TypingLiteralStringError when a case file's package has a specification but is not
    tightened here (not installed, or the specification no longer applies)."""
    chosen = [f.resolve() for f in (files if files is not None else third_party_case_files())]
    outcome = Outcome(checker.name, THIRD_PARTY_TARGET)
    with tempfile.TemporaryDirectory(prefix=f"tls-{checker.name}-third-party-") as tmp:
        work = Path(tmp)
        for profile in PROFILES:
            batch = [f for f in chosen if profile_of(f) == profile]
            if not batch:
                continue
            overlay: Path | None = None
            roots: list[Path] = []
            if not stock:
                layout = "full" if checker.needs_full_typeshed else "overlay"
                overlay = build_overlay(
                    checker.overlay_base(), work / f"overlay-{profile}", profile=profile,
                    layout=layout,
                ).root  # fmt: skip
                coverage = thirdparty.build(Path(sys.executable), profile, work / "cache")
                _require_coverage(coverage, batch)
                roots = [c.root for c in coverage if c.root is not None]
            result = checker.run(
                batch,
                python_version=THIRD_PARTY_TARGET,
                overlay=overlay,
                workdir=work / f"run-{profile}",
                extra_paths=roots,
            )
            for path in batch:
                compare(outcome, path, [d for d in result.diagnostics if d.path == str(path)])
    return outcome


def _require_coverage(coverage: list[thirdparty.Coverage], files: Sequence[Path]) -> None:
    distributions = {path.parent.name for path in files}
    for c in coverage:
        if c.distribution in distributions and not c.covered:
            raise TypingLiteralStringError(
                f"the cases of {c.distribution} cannot run: {c.package} is not tightened here "
                f"({c.why}); install the test extras: pip install -e '.[test]'"
            )
