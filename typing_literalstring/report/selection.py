"""Which findings a run reports: ``--select``/``--ignore`` (or the table's ``select``,
``ignore`` and ``per-file-ignores``), and which files it checks at all (``exclude``).

Selectors are rule codes or their prefixes, as ruff's are: ``LS1`` is every SQL rule, ``LS``
every rule.  A rule is reported when the most specific selector that matches it is a select;
an ignore as specific as the select wins.  Selection is applied before the exit status and
the baseline, so a rule not selected never fails a run, and the baseline keeps its entries.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Mapping, Sequence

from typing_literalstring.analysis.findings import CheckResult, Finding
from typing_literalstring.core.config import RULE_IDS
from typing_literalstring.core.project import root_relative
from typing_literalstring.core.project_files import Excluded

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


def _listed(codes: Sequence[str]) -> str:
    """Rule codes as a TOML list, as the table writes them."""
    return "[" + ", ".join(f'"{code}"' for code in codes) + "]"


def excluded(relative: str, globs: Sequence[str]) -> bool:
    return any(matches(glob, relative) for glob in globs)


def excluder(root: Path, globs: Sequence[str]) -> Excluded:
    """Whether a file or folder of the project at ``root`` is excluded by ``globs``, as the
    walk asks it (``project_files.list_files``); None when nothing is excluded.  A folder a
    glob matches is not entered: every file below it would match too."""
    if not globs:
        return None
    return lambda path: excluded(root_relative(str(path), root), globs)


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

    def cannot_report(self, files: Sequence[str]) -> str:
        """Why this selection reports no finding in any of ``files`` (root-relative), or ""
        when it can report one: a run under it passes whatever the code does."""
        rules = [rule for rule in RULE_IDS if self.rule_selected(rule)]
        if not rules:
            return (
                f"the selection reports no rule (select = {_listed(self.select)}, ignore = "
                f"{_listed(self.ignore)})"
            )
        if files and not any(self.reports(f, rule) for f in files for rule in rules):
            every = "the file" if len(files) == 1 else f"all {len(files)} files"
            return f"per-file-ignores ignore every selected rule in {every} checked"
        return ""

    @property
    def everything(self) -> bool:
        """Whether this selection reports every finding (nothing to filter)."""
        return self.select == EVERY_RULE and not self.ignore and not self.per_file_ignores


# What hid a finding, as the JSON output names it.
BY_RULE = "select_ignore"  # its rule is not selected (select, ignore, --select, --ignore)
BY_FILE = "per_file_ignores"  # its file's per-file-ignores ignore its rule


def apply(result: CheckResult, selection: Selection) -> None:
    """Drop from ``result`` the findings (reported or suppressed by comments) that
    ``selection`` does not report, counting those it hid by what hid them, and say why when
    it can report nothing at all in the files checked."""
    if selection.everything:
        return

    def kept(finding: Finding) -> bool:
        return selection.reports(root_relative(finding.path, result.project), finding.rule.id)

    hidden: Counter[str] = Counter()
    for finding in result.findings:
        if not selection.rule_selected(finding.rule.id):
            hidden[BY_RULE] += 1
        elif not kept(finding):
            hidden[BY_FILE] += 1
    result.findings = [f for f in result.findings if kept(f)]
    result.suppressed = [(f, s) for f, s in result.suppressed if kept(f)]
    result.hidden = dict(sorted(hidden.items()))
    result.reports_nothing = selection.cannot_report(
        [root_relative(p, result.project) for p in result.paths]
    )
