"""One finding as the text report shows it: a line of what and where, the code, and a line
of fix.

A rule's summary is written for its page (which drivers LS101 covers, what each Any rule
means) and runs to hundreds of characters: said on every finding it buried the fix.  The
report says what happened in a few words instead, and the fix line ends with the command that
prints the whole page.
"""

from __future__ import annotations

import os
from pathlib import Path

from typing_literalstring.analysis.findings import Finding
from typing_literalstring.analysis.fix_hints import short_fix
from typing_literalstring.specs.sinks import (
    LOGGING,
    LOGGING_MESSAGE,
    MARKUP,
    NON_LITERAL,
    SHELL,
    SHELL_ARGV,
    SQL,
    TEMPLATE,
    UNVERIFIED,
    UNVERIFIED_BUILT,
    UNVERIFIED_SINK,
    UNVERIFIED_UNTYPED,
)

# What each rule found, in a few words: the subject of "... reaches conn.execute".
WHAT = {
    NON_LITERAL.id: "a non-literal string reaches a LiteralString",
    SQL.id: "non-literal SQL text",
    SHELL.id: "a non-literal shell command",
    SHELL_ARGV.id: "a shell whose script is not literal",
    LOGGING.id: "a non-literal logging format string",
    LOGGING_MESSAGE.id: "a non-literal log message",
    TEMPLATE.id: "a non-literal template source",
    MARKUP.id: "a non-literal string declared safe markup",
    UNVERIFIED.id: "a value of type Any reaches a LiteralString unverified",
    UNVERIFIED_BUILT.id: "sink text built from a value of type Any, unverified",
    UNVERIFIED_UNTYPED.id: "sink text from untyped code, unverified",
    UNVERIFIED_SINK.id: "sink text built from non-literal parts, at a sink the checker cannot see",
}


def relative(path: str, base: Path) -> str:
    """``path`` as seen from ``base`` (where the user stands), ``..`` included."""
    try:
        return Path(os.path.relpath(path, base)).as_posix()
    except ValueError:  # another drive on Windows
        return Path(path).as_posix()


def sink(finding: Finding) -> str:
    """What received the string, as the user wrote it and as it is known."""
    target = finding.api
    if finding.parameter:
        target += f", parameter {finding.parameter}"
    if not finding.callee or finding.callee == finding.api:
        return target
    return f"{finding.callee}: {target}"


def what(finding: Finding) -> str:
    """The finding's what, and what received the string: "non-literal SQL text (conn.execute:
    sqlite3 Connection/Cursor.execute)"."""
    said = WHAT.get(finding.rule.id, finding.rule.summary.rstrip("."))
    return f"{said} ({sink(finding)})"


def lines(finding: Finding, cwd: Path, explained: str | None) -> list[str]:
    """The report's lines for ``finding``; ``explained``: what the checker said of it (shown
    with --verbose), or None."""
    where = f"{relative(finding.path, cwd)}:{finding.line}:{finding.column}"
    said = [f"{where}: {finding.rule.id} {finding.rule.name}: {what(finding)}"]
    said.append(f"    {finding.source}")
    if finding.through:
        said.append(f"    through: {' -> '.join(finding.through)}")
    if finding.evidence:
        said.append(f"    evidence: {finding.evidence}")
    if explained:
        said.append(f"    {explained}")
    said.append(f"    fix: {short_fix(finding)}")
    return said
