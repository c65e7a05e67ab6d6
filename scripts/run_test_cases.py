"""Run type checkers over test_cases/ with our overlay wired in, and hold them to the markers.

Every line marked ``# E`` must draw an error from the checker; no unmarked line may draw one
(``# E?`` lines may go either way).  Where a checker cannot match the markers, each deviation is
recorded in ``test_cases/results/<checker>.toml`` with its reason; a run fails when the checker's
behaviour differs from that record, whether it got worse or better, so any change is noticed.

    python scripts/run_test_cases.py                       # every installed checker, all targets
    python scripts/run_test_cases.py --checker pyright --target 3.12
    python scripts/run_test_cases.py --checker mypy --update --reason "..."   # rewrite a record
    python scripts/run_test_cases.py --report               # regenerate test_cases/RESULTS.md
    python scripts/run_test_cases.py --checker pyright --stock   # no overlay: what typeshed gives

Files named ``*_strict.py`` run with the strict profile's overlay, the others with the default;
``*_py3NN.py`` files run only on Python 3.NN and newer.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from scripts.regression.matrix import TARGETS, run_checker  # noqa: E402
from scripts.regression.record import differences, load_record, write_record  # noqa: E402
from scripts.regression.report import write_report  # noqa: E402
from typing_literalstring.checkers import CHECKERS  # noqa: E402
from typing_literalstring.core.errors import TypingLiteralStringError  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--checker", action="append", choices=sorted(CHECKERS))
    parser.add_argument("--target", action="append", choices=TARGETS)
    parser.add_argument("--update", action="store_true", help="rewrite the results files")
    parser.add_argument("--reason", help="with --update: the reason for new deviations")
    parser.add_argument("--stock", action="store_true", help="run without the overlay")
    parser.add_argument("--report", action="store_true", help="regenerate test_cases/RESULTS.md")
    parser.add_argument("--jobs", type=int, default=2, help="targets checked at once")
    args = parser.parse_args(argv)
    names: list[str] = args.checker or ([] if args.report and not args.update else list(CHECKERS))
    failed = False
    for name in names:
        checker = CHECKERS[name]
        if not checker.is_installed():
            print(f"{name:<12} SKIPPED: not installed (pip install {checker.distribution})")
            continue
        started = time.monotonic()
        try:
            outcomes = run_checker(
                checker, args.target or TARGETS, stock=args.stock, jobs=args.jobs
            )
            version = checker.version()
        except TypingLiteralStringError as error:
            print(f"{name:<12} ERROR: {error}", file=sys.stderr)
            failed = True
            continue
        for outcome in outcomes:
            print(outcome.summary())
        print(f"{name:<12} {len(outcomes)} targets in {time.monotonic() - started:.1f} s")
        if args.stock:
            continue
        if args.update:
            print(f"wrote {write_record(name, version, outcomes, args.reason)}")
            continue
        record = load_record(name)
        if record is not None and record.version != version:
            print(f"note: the record is for {name} {record.version}; installed: {version}")
        diff = differences(name, outcomes)
        for line in diff:
            print(line)
        failed = failed or bool(diff)
    if args.report:
        print(f"wrote {write_report()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
