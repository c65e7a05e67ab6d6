"""Which findings a run reports: ``--select``/``--ignore`` (or the table's ``select``,
``ignore`` and ``per-file-ignores``), and which files it checks at all (``exclude``).

Selectors are rule codes or their prefixes, as ruff's are: ``LS1`` is every SQL rule, ``LS``
every rule.  A rule is reported when the most specific selector that matches it is a select;
an ignore as specific as the select wins.  Selection is applied before the exit status and
the baseline, so a rule not selected never fails a run, and the baseline keeps its entries.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Mapping, Sequence

from typing_literalstring.analysis.findings import CheckResult, Finding
from typing_literalstring.core.project import root_relative

EVERY_RULE = ("LS",)


def _specificity(rule_id: str, selectors: Sequence[str]) -> int:
    """The length of the longest selector that matches ``rule_id``; -1 if none does."""
    return max((len(s) for s in selectors if rule_id.startswith(s)), default=-1)


def matches(glob: str, relative: str) -> bool:
    """Whether ``glob`` names the root-relative posix path ``relative`` or a folder above it.

    A glob without a slash also matches the file's or a folder's own name (``test_*.py``,
    ``migrations``), and a leading ``**/`` also matches at the root, as gitignore's does."""
    glob = glob.rstrip("/")
    patterns = [glob, *([glob[3:]] if glob.startswith("**/") else [])]
    path = PurePosixPath(relative)
    candidates = [relative, *(p.as_posix() for p in path.parents if p.as_posix() != ".")]
    for pattern in patterns:
        if "/" not in pattern:
            if any(fnmatch.fnmatchcase(part, pattern) for part in path.parts):
                return True
        elif any(fnmatch.fnmatchcase(candidate, pattern) for candidate in candidates):
            return True
    return False


def excluded(relative: str, globs: Sequence[str]) -> bool:
    return any(matches(glob, relative) for glob in globs)


@dataclass(frozen=True)
class Selection:
    select: tuple[str, ...] = EVERY_RULE
    ignore: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: {})

    def rule_selected(self, rule_id: str) -> bool:
        chosen = _specificity(rule_id, self.select)
        return chosen >= 0 and chosen > _specificity(rule_id, self.ignore)

    def reports(self, relative: str, rule_id: str) -> bool:
        """Whether a finding of ``rule_id`` in the root-relative file ``relative`` is
        reported."""
        if not self.rule_selected(rule_id):
            return False
        return not any(
            _specificity(rule_id, codes) >= 0 and matches(glob, relative)
            for glob, codes in self.per_file_ignores.items()
        )

    @property
    def everything(self) -> bool:
        """Whether this selection reports every finding (nothing to filter)."""
        return self.select == EVERY_RULE and not self.ignore and not self.per_file_ignores


def apply(result: CheckResult, selection: Selection) -> None:
    """Drop from ``result`` the findings (reported or suppressed by comments) that
    ``selection`` does not report."""
    if selection.everything:
        return

    def kept(finding: Finding) -> bool:
        return selection.reports(root_relative(finding.path, result.project), finding.rule.id)

    result.findings = [f for f in result.findings if kept(f)]
    result.suppressed = [(f, s) for f, s in result.suppressed if kept(f)]
