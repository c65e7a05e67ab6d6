"""The copies ``check --report-any`` has checked: probes put around the tagged parts.

The reveal copy asks each tagged part's type, ``reveal_type(((part), 7))[0]``; the substitute
copy (``unverified_refusals``) makes each part revealed as Any plain ``str``.  The probes only
insert text around the parts, so lines never move; a copy that does not parse is a bug of ours
(``CopyError``), never a pass.
"""

from __future__ import annotations

import ast
from typing import Sequence

from typing_literalstring.analysis.unverified import Instrumented
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.core.source_edits import byte_offsets

# The probes: a revealed part keeps its type, ``(x, 7)[0]`` being ``x``'s; a substituted part
# is ``str`` for every checker (``str(x)`` has no LiteralString overload).
_REVEAL_OPEN = b"reveal_type((("
SUBSTITUTE_OPEN = b"str(object=("  # parenthesized: a generator is a part too
SUBSTITUTE_CLOSE = b"))"


def insert(source: str, spans: Sequence[tuple[ast.expr, bytes, bytes]]) -> str:
    """Put ``before`` and ``after`` around each node (nested nodes nest their probes)."""
    data, offsets = source.encode("utf-8"), byte_offsets(source)
    # (offset, ends before starts, outer start first and outer end last, span index)
    inserts: list[tuple[int, int, int, int]] = []
    for index, (node, _, _) in enumerate(spans):
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        if isinstance(node, ast.GeneratorExp) and data[start:end].startswith(b"("):
            # A generator's span takes in its parentheses, the call's own when it is the only
            # argument (`dict(x for x in y)`): the probe goes inside them.
            start, end = start + 1, end - 1
        inserts.append((start, 1, -(end - start), index))
        inserts.append((end, 0, end - start, index))
    out = bytearray()
    last = 0
    for offset, is_start, _, index in sorted(inserts):
        out += data[last:offset] + (spans[index][1] if is_start else spans[index][2])
        last = offset
    out += data[last:]
    return out.decode("utf-8")


class CopyError(TypingLiteralStringError):
    """A probed copy does not parse: a bug of ours, never a pass."""


def parsed(text: str, what: str) -> ast.Module:
    try:
        return ast.parse(text)
    except SyntaxError as error:
        raise CopyError(
            f"the {what} copy made for --report-any does not parse (line {error.lineno}: "
            f"{error.msg}); please report this bug of typing-literalstring with the file"
        ) from error


def reveal_copy(instrumented: Instrumented, name: str = "") -> str:
    """The copy with every tagged node revealed under its tag."""
    text = insert(
        instrumented.source,
        [
            (node, _REVEAL_OPEN, f"), {tag}))[0]".encode())
            for tag, node in enumerate(instrumented.nodes)
        ],
    )
    parsed(text, f"revealing {name}")
    return text
