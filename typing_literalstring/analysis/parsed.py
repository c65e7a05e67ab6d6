"""The checked files read as Python reads them, and what is derived from each syntax tree."""

from __future__ import annotations

import ast
import functools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from typing_literalstring.analysis import (
    callees,
    fix_hints,
    suppressions,
)
from typing_literalstring.analysis.findings import Unparsable
from typing_literalstring.analysis.statements import Statements, imported_packages
from typing_literalstring.analysis.suppressions import Malformed, Suppression
from typing_literalstring.checkers import (
    Diagnostic,
)
from typing_literalstring.core import grammar, sources
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.core.project import (
    module_name,
)
from typing_literalstring.core.source_edits import byte_offsets
from typing_literalstring.specs.sinks import (
    SinkCall,
    find_sink_calls,
    innermost_sink_call,
)


class FilesChangedError(TypingLiteralStringError):
    """A checked file changed while the check ran."""


@dataclass
class Parsed:
    """One checked file's syntax tree and text, and what we derived from it."""

    tree: ast.Module
    # The text the tree was parsed from: the file's, or its newer grammar rewritten in place
    # (sources.Source.parsable); excerpts come from ``read.text``.
    source: str
    module: str | None
    is_package: bool = False  # an __init__ file: its module is its own package
    path: str = ""  # absolute, as the checker's diagnostics name it
    read: sources.Source | None = None

    @functools.cached_property
    def sites(self) -> callees.Sites:
        return callees.Sites(self.tree)

    @functools.cached_property
    def sink_calls(self) -> list[SinkCall]:
        """Every sink call of the file, found when first asked for (``--report-any``)."""
        return find_sink_calls(
            self.sites.calls, self.source, self.names, self._encoded, self.packages
        )

    def sink_calls_on(self, line: int) -> list[SinkCall]:
        """The sink calls of the statements that hold ``line``: most files have no error, and
        a file with errors is asked about a few of its lines."""
        found = self._sink_calls_on.get(line)
        if found is None:
            calls = self.sites.calls_on(line)
            found = find_sink_calls(calls, self.source, self.names, self._encoded, self.packages)
            self._sink_calls_on[line] = found
        return found

    @functools.cached_property
    def _sink_calls_on(self) -> dict[int, list[SinkCall]]:
        return {}

    @functools.cached_property
    def _encoded(self) -> tuple[bytes, list[int]]:
        return self.source.encode("utf-8"), byte_offsets(self.source)

    @functools.cached_property
    def packages(self) -> frozenset[str]:
        """The top-level packages the file imports anywhere."""
        return imported_packages(self.tree)

    @functools.cached_property
    def names(self) -> dict[str, str]:
        return callees.imported_names(self.tree, self.module, self.is_package)

    @functools.cached_property
    def statements(self) -> Statements:
        return Statements(self.tree, self.source)

    @functools.cached_property
    def constants_declared_str(self) -> frozenset[str]:
        return fix_hints.declared_str(self.tree)

    @functools.cached_property
    def suppressions(self) -> list[Suppression | Malformed]:
        if "typing-literalstring" not in self.source.lower():
            return []  # most files: no need to tokenize
        return suppressions.read(self.path, self.statements.tokens)


def _parse(path: Path, roots: Sequence[Path], host_grammar: bool) -> Parsed | Unparsable:
    """``path`` read as Python reads it.  ``host_grammar``: the checker parses with the Python
    running us (mypy), so a file in a newer grammar is one it cannot check."""
    try:
        read, tree = sources.read(path)
    except SyntaxError as error:
        message = error.msg
        if not grammar.available() and sys.version_info < (3, 14):
            message += f" (if the project targets a newer Python: {grammar.INSTALL_HINT})"
        return Unparsable(str(path), error.lineno or 1, message)
    except (ValueError, OSError) as error:  # UnicodeDecodeError, a null byte, unreadable
        return Unparsable(str(path), 1, str(error))
    except (RecursionError, MemoryError):  # Python itself cannot compile such a file either
        return Unparsable(str(path), 1, "nested too deeply for Python's parser")
    if read.needs is not None and host_grammar:
        return Unparsable(
            str(path),
            1,
            f"uses the Python {read.needs} grammar, which mypy cannot read: mypy parses with "
            f"the Python that runs it ({sources.host_version()}); run typing-literalstring "
            f"under Python {read.needs} or newer",
        )
    return Parsed(
        tree,
        read.parsable,
        module_name(path, roots),
        path.stem == "__init__",
        str(path.resolve()),
        read,
    )


def parse_all(
    paths: list[Path], roots: Sequence[Path], host_grammar: bool = False
) -> tuple[dict[str, Parsed], list[Unparsable]]:
    parsed: dict[str, Parsed] = {}
    unparsable: list[Unparsable] = []
    for path in paths:
        entry = _parse(path, roots, host_grammar)
        if isinstance(entry, Unparsable):
            unparsable.append(entry)
        else:
            parsed[str(path.resolve())] = entry
    return parsed, unparsable


def sink_call_of(parsed: Parsed, diagnostic: Diagnostic) -> SinkCall | None:
    return innermost_sink_call(
        parsed.sink_calls_on(diagnostic.line), diagnostic.line, diagnostic.column
    )


def refuse_changed_files(before: dict[Path, str], parsed: dict[str, Parsed]) -> None:
    """A file rewritten while the checker ran may have been checked in another version than
    the one we read: its findings could name lines that are not there.  Never mix the two.
    ``before``: each file's digest taken before the checker started; the checker read the
    file after that and before now, we read it in between, so three equal digests mean one
    version (short of a change made and undone within the run)."""
    now = sources.digests(before)
    read = {e.read.path: e.read.digest for e in parsed.values() if e.read is not None}
    moved = [p for p in before if now[p] != before[p] or read.get(p, before[p]) != before[p]]
    if moved:
        shown = ", ".join(str(p) for p in moved[:5]) + (" ..." if len(moved) > 5 else "")
        raise FilesChangedError(
            f"{len(moved)} file(s) changed while they were being checked ({shown}): the "
            "checker and the analysis may have read different versions. Run check again when "
            "nothing is writing to the project (an editor saving, a formatter, a build)"
        )
