"""One check of a whole project, as ``typing-literalstring check`` run in it with no PATH makes
it: the project table's checker, profile, selection, per-file ignores, exclusions and baseline,
the options given winning over the table.

``commands/check.py``'s ``command()`` does the same for the command line, from its
``argparse`` namespace; this is that sequence for a caller without one (the server's worker).
"""

from __future__ import annotations

from pathlib import Path

from typing_literalstring.analysis.findings import CheckResult
from typing_literalstring.checkers import COMMAND_CHECKERS, get_checker
from typing_literalstring.commands.check import run_check
from typing_literalstring.commands.server.options import Options
from typing_literalstring.core.config import read
from typing_literalstring.core.project import find_root
from typing_literalstring.report import baseline, selection
from typing_literalstring.specs.tighten import PROFILES


def check_project(folder: Path, options: Options) -> CheckResult:
    """The findings ``check`` reports for the project holding ``folder`` (its root is found
    from there upwards, as ``check`` finds it from the working folder), after selection,
    suppression comments and the baseline.  Raises what ``check`` raises (a usage error, a
    checker that failed), each message naming the problem and the fix."""
    root = find_root(folder)
    settings = read(root, sorted(COMMAND_CHECKERS), PROFILES)
    chosen = selection.Selection(
        select=settings.select if settings.select is not None else selection.EVERY_RULE,
        ignore=settings.ignore or (),
        per_file_ignores=settings.per_file_ignores,
    )
    if settings.baseline is not None:
        baseline.refuse_missing(settings.baseline)  # before the run, as check does
    result = run_check(
        get_checker(options.checker or settings.checker or "pyright"),
        [],
        profile=options.profile or settings.profile or "default",
        python_version=options.python_version,
        cache_dir=Path(options.cache_dir) if options.cache_dir else None,
        python=options.python,
        cwd=root,
        report_any=options.report_any,
        platform=options.platform,
        exclude=settings.exclude,
    )
    # In check's order: the selection first, so that a rule not selected is neither matched
    # against nor dropped from the baseline.
    selection.apply(result, chosen)
    baseline.apply(result, settings.baseline, False, chosen.reports)
    return result
