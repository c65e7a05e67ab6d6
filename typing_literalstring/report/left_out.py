"""What a check left out, said in every format, so that nothing is left out without a word.

A configuration that hides every finding (``ignore = ["LS"]``, ``per-file-ignores`` of
``"*"``, ``exclude = ["*"]``) used to print "0 findings" and exit 0, like a clean project;
folders named ``build`` or ``dist`` were skipped at any depth, packages of those names too.
The report now counts what the selection hid and what ``exclude`` left out (the summary line,
JSON ``selection``, SARIF run properties), warns when the selection can report nothing at all,
and names the folders skipped by name and why (JSON ``skipped_folders``).  Files that could not
be read or parsed, and folders that could not be listed, are errors (exit 2): code not checked.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from typing_literalstring.analysis.findings import CheckResult, Unparsable
from typing_literalstring.core.project import root_relative
from typing_literalstring.core.project_files import REASONS
from typing_literalstring.report import finding_lines
from typing_literalstring.report.selection import BY_FILE, BY_RULE

# How many skipped folders of one reason the text names before "and N more".
_SHOWN = 5
_HIDDEN_BY = {BY_RULE: "select/ignore", BY_FILE: "per-file-ignores"}


def _plural(count: int, what: str) -> str:
    return f"{count} {what}{'s' if count != 1 else ''}"


def _folder(path: Path, base: Path) -> str:
    return finding_lines.relative(str(path), base).rstrip("/") + "/"


def unparsable_path(u: Unparsable, base: Path) -> str:
    """A file not checked, or a folder not listed (line 0), shown with a slash at its end."""
    return finding_lines.relative(u.path, base) + ("" if u.line else "/")


def why_not(u: Unparsable) -> str:
    """A file not checked: it does not parse, or it was not read at all (outside the
    project, a link out of it, a device), left out (commands.memory); or a folder that could
    not be listed."""
    if not u.line or u.message.endswith("not read") or u.message.startswith("left out"):
        return u.message
    return f"it does not parse: {u.message}"


def unparsable_notice(result: CheckResult) -> list[str]:
    """``path:line: not checked: why`` for each file (``path/: ...`` for each folder) not
    checked."""
    return [
        f"{unparsable_path(u, result.cwd)}{f':{u.line}' if u.line else ''}: not checked: "
        f"{why_not(u)}"
        for u in result.unparsable
    ]


def unparsable_notifications(result: CheckResult) -> list[dict[str, Any]]:
    """The SARIF notification (level error) of each file or folder not checked."""
    return [
        {
            "level": "error",
            "message": {"text": f"not checked: {why_not(u)}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {
                            # A folder not listed (line 0) is named with its slash, no region.
                            "uri": root_relative(u.path, result.project) + ("" if u.line else "/"),
                            "uriBaseId": "%SRCROOT%",
                        },
                        **({"region": {"startLine": u.line}} if u.line else {}),
                    }
                }
            ],
        }
        for u in result.unparsable
    ]


def skipped_notice(result: CheckResult, base: Path | None = None) -> str | None:
    """The folders the walk skipped by name, by reason, from ``base`` (default: where the
    user stands)."""
    if not result.skipped_folders:
        return None
    by_reason: dict[str, list[str]] = {}
    for skipped in result.skipped_folders:
        by_reason.setdefault(skipped.reason, []).append(_folder(skipped.path, base or result.cwd))
    said: list[str] = []
    for reason, folders in by_reason.items():
        more = len(folders) - _SHOWN
        shown = ", ".join(folders[:_SHOWN]) + (f" and {more} more" if more > 0 else "")
        said.append(f"{shown} ({REASONS[reason]})")
    return (
        f"{_plural(len(result.skipped_folders), 'folder')} not checked: {'; '.join(said)}. "
        "A folder named on the command line is checked"
    )


def _excluded(result: CheckResult) -> str:
    """What exclude left out, as "4 files and 1 folder" ("" when nothing)."""
    parts = [
        _plural(count, what)
        for count, what in ((result.excluded_files, "file"), (result.excluded_folders, "folder"))
        if count
    ]
    return " and ".join(parts)


def summary_parts(result: CheckResult) -> list[str]:
    """What the summary line says of the findings the selection hid and the files exclude
    left out: a gate that passes because of its configuration says so."""
    parts = [f"{count} hidden by {_HIDDEN_BY[by]}" for by, count in result.hidden.items() if count]
    excluded = _excluded(result)
    return [*parts, *([f"{excluded} left out by exclude"] if excluded else [])]


def selection_notice(result: CheckResult) -> str | None:
    """A warning when the configuration leaves this check nothing to report: it passes
    whatever the code does."""
    if result.reports_nothing:
        why = result.reports_nothing
    elif result.files == 0 and not result.unparsable and _excluded(result):
        why = f"exclude left out every file ({_excluded(result)})"
    else:
        return None
    return (
        f"{why}: this check cannot report a finding, so it passes whatever the code does. "
        "Narrow the configuration (docs/configuration.md)"
    )


def as_json(result: CheckResult) -> dict[str, Any]:
    """The JSON output's ``skipped_folders`` and ``selection``."""
    return {
        "skipped_folders": {
            "folders": [
                {"path": _folder(s.path, result.cwd), "reason": s.reason}
                for s in result.skipped_folders
            ],
            "notice": skipped_notice(result),
        },
        "selection": {
            "hidden_findings": sum(result.hidden.values()),
            "hidden_by": {by: result.hidden.get(by, 0) for by in _HIDDEN_BY},
            "excluded_files": result.excluded_files,
            "excluded_folders": result.excluded_folders,
            "notice": selection_notice(result),
        },
    }


def sarif_properties(result: CheckResult) -> dict[str, Any]:
    """The SARIF run's properties: the same counts, and the folders skipped (root-relative)."""
    return {
        "hiddenFindings": sum(result.hidden.values()),
        "hiddenBy": {by: result.hidden.get(by, 0) for by in _HIDDEN_BY},
        "excludedFiles": result.excluded_files,
        "excludedFolders": result.excluded_folders,
        "skippedFolders": [_folder(s.path, result.project) for s in result.skipped_folders],
        "skippedFoldersByReason": dict(
            sorted(Counter(s.reason for s in result.skipped_folders).items())
        ),
    }


def sarif_notifications(result: CheckResult) -> list[dict[str, Any]]:
    """A warning when the selection can report nothing; a note naming the skipped folders."""
    notifications: list[dict[str, Any]] = []
    warning = selection_notice(result)
    if warning is not None:
        notifications.append({"level": "warning", "message": {"text": warning}})
    skipped = skipped_notice(result, result.project)  # SARIF names files from the root
    if skipped is not None:
        notifications.append({"level": "note", "message": {"text": skipped + "."}})
    return notifications
