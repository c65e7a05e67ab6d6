"""A check's result as each file's diagnostics, in plain data the worker sends the server.

Each finding ``check`` reports becomes one diagnostic: its rule id as the code, what the text
report says of it and its fix as the message, the severity of its rule, its rule page, and for
a finding through the project's own wrappers the chain as related places (``related``).  Files
``check`` could not read or check get one error diagnostic saying so, malformed suppression
comments a warning.  Positions are 0-based lines and columns in the editor's position encoding
(UTF-16 code units unless the editor chose another), counted in the file as it was checked.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Mapping, Sequence

from typing_literalstring.analysis.findings import CheckResult, Finding
from typing_literalstring.analysis.statements import all_nodes
from typing_literalstring.commands.server.messages import (
    ERROR,
    WARNING,
    Item,
    Place,
    Related,
)
from typing_literalstring.report import (
    finding_lines,
    left_out,
    notices,
    output,
    regions,
    rule_pages,
)
from typing_literalstring.report.texts import Texts, characters

# The rules that say the checker let a sink's text through unjudged: their severity is a
# setting (Options.unverified_severity), the others are errors, as SARIF rates every rule.
UNVERIFIED_FAMILY = "Any"
# The editor's position encodings (LSP's PositionEncodingKind values).
ENCODINGS = ("utf-8", "utf-16", "utf-32")


def units(text: str, characters: int, encoding: str) -> int:
    """The first ``characters`` characters of ``text`` counted in ``encoding``'s units."""
    prefix = text[:characters]
    if encoding == "utf-8":
        return len(prefix.encode("utf-8", errors="surrogatepass"))
    if encoding == "utf-32":
        return len(prefix)
    return len(prefix.encode("utf-16-le", errors="surrogatepass")) // 2


def place(
    texts: Texts, path: str, start: tuple[int, int], end: tuple[int, int], encoding: str
) -> Place:
    """A place from 1-based lines and 0-based character columns."""
    (line, column), (end_line, end_column) = start, end
    return Place(
        path,
        (line - 1, units(texts.line(path, line), column, encoding)),
        (end_line - 1, units(texts.line(path, end_line), end_column, encoding)),
    )


def node_place(texts: Texts, path: str, node: ast.AST, encoding: str) -> Place:
    """The place of a syntax node (its ``lineno`` and UTF-8 ``col_offset``)."""
    line: int = getattr(node, "lineno", 1)
    end_line: int = getattr(node, "end_lineno", None) or line
    offset: int = getattr(node, "col_offset", 0)
    end_offset: int = getattr(node, "end_col_offset", None) or offset
    start = characters(texts.line(path, line), offset)
    end = characters(texts.line(path, end_line), end_offset)
    return place(texts, path, (line, start), (end_line, end), encoding)


def _in_bytes(tree: ast.Module | None, line: int, column: int) -> bool:
    """Whether a finding's 1-based ``column`` is a UTF-8 offset (an expression of the line
    starts there, as ``classify`` takes the call's) rather than the checker's characters."""
    if tree is None:
        return False
    return any(
        isinstance(node, ast.expr) and node.lineno == line and node.col_offset + 1 == column
        for node in all_nodes(tree)
    )


def finding_place(texts: Texts, ends: regions.Ends, finding: Finding, encoding: str) -> Place:
    """From the finding's start to the end of its call (``regions``), else its whole line."""
    text, tree = texts.read(finding.path)
    line_text = texts.line(finding.path, finding.line)
    ascii_only = line_text.isascii()
    in_bytes = not ascii_only and _in_bytes(tree, finding.line, finding.column)
    start = characters(line_text, finding.column - 1) if in_bytes else finding.column - 1
    end = ends(finding) if text else None
    if end is None or (end.line, end.column) <= (finding.line, finding.column):
        return place(
            texts, finding.path, (finding.line, start), (finding.line, len(line_text)), encoding
        )
    end_text = texts.line(finding.path, end.line)
    end_column = characters(end_text, end.column - 1) if in_bytes else end.column - 1
    return place(texts, finding.path, (finding.line, start), (end.line, end_column), encoding)


def severity(finding: Finding, unverified: str) -> str:
    return unverified if finding.rule.family == UNVERIFIED_FAMILY else ERROR


def message(finding: Finding) -> str:
    """What the text report says of the finding, in one paragraph, and its fix."""
    what = finding_lines.what(finding)
    said = [what[0].upper() + what[1:] + "."]
    if finding.rule.family == UNVERIFIED_FAMILY and finding.messages:
        said.append(f"Unverified: {finding.messages[0]}.")
    if finding.through:
        said.append(f"Through: {' -> '.join(finding.through)}.")
    said.append(f"Fix: {finding.fix}")
    return output.printable(" ".join(s.replace(".. ", ". ") for s in said))


def rule_href(rule_id: str) -> str:
    """The rule's page: on the repository's web view when the package names one (as SARIF's
    ``helpUri``), else the page installed with the package."""
    uri = rule_pages.help_uri(rule_id)
    if uri:
        return uri
    try:
        return (rule_pages.pages_dir() / f"{rule_id}.md").resolve().as_uri()
    except rule_pages.RulePageError:
        return ""


def finding_item(
    texts: Texts,
    ends: regions.Ends,
    finding: Finding,
    encoding: str,
    unverified: str,
    related: Sequence[Related],
) -> Item:
    return Item(
        finding_place(texts, ends, finding, encoding),
        severity(finding, unverified),
        finding.rule.id,
        message(finding),
        rule_href(finding.rule.id),
        tuple(related),
        {
            "rule": finding.rule.id,
            "callee": finding.callee,
            "api": finding.api,
            "hint": finding.hint,
            "through": " -> ".join(finding.through),
        },
    )


def _line_item(texts: Texts, path: str, line: int, level: str, said: str, encoding: str) -> Item:
    text = texts.line(path, line)
    where = place(texts, path, (max(line, 1), 0), (max(line, 1), len(text)), encoding)
    return Item(where, level, "", output.printable(said))


def items(
    result: CheckResult,
    encoding: str,
    unverified: str,
    related: Mapping[Finding, Sequence[Related]],
    texts: Texts | None = None,
) -> dict[str, list[Item]]:
    """Each file's diagnostics (absolute paths): a file checked without findings has an empty
    list, so that the editor clears what it showed."""
    texts = texts or Texts()
    ends = regions.Ends()
    found: dict[str, list[Item]] = {str(Path(p).resolve()): [] for p in result.paths}
    for finding in result.findings:
        item = finding_item(texts, ends, finding, encoding, unverified, related.get(finding, ()))
        found.setdefault(str(Path(finding.path).resolve()), []).append(item)
    for refused, notice in zip(result.unparsable, left_out.unparsable_notice(result)):
        said = "not checked: " + notice.split(": not checked: ", 1)[-1]
        path = str(Path(refused.path).resolve())
        found.setdefault(path, []).append(
            _line_item(texts, refused.path, refused.line, ERROR, said, encoding)
        )
    notice = notices.unchecked_notice(result) or "not checked"
    for unchecked in result.unchecked:
        path = str(Path(unchecked.path).resolve())
        found.setdefault(path, []).append(
            _line_item(texts, unchecked.path, 1, ERROR, notice, encoding)
        )
    for malformed in result.malformed_suppressions:
        path = str(Path(malformed.path).resolve())
        found.setdefault(path, []).append(
            _line_item(texts, malformed.path, malformed.line, WARNING, malformed.problem, encoding)
        )
    return found
