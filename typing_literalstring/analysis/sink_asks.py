"""Where the questions about each sink call go in the probed copy.

Each ``sink_looks.Look`` is asked about in the copy (``Checker.ask``: the text is also given to
the judge, whose answer is the verdict, ``checkers/asking.py``), next to the call, so that no
line moves: ``cur.execute(q)`` as a statement is followed, on its last line, by ``; <asks>``, a
call used as a value ``c(...)`` becomes ``(c(...), <asks>)[0]``, and a shell script in an
argument list ``s`` becomes ``(s, <asks>)[0]`` where it stands.  Each keeps the call, its type,
its scope and its line.  ``probes`` makes the copy of these insertions.
"""

from __future__ import annotations

import ast
from typing import Callable, Sequence

from typing_literalstring.analysis.sink_looks import Look
from typing_literalstring.analysis.unverified import Instrumented, origin_nodes, same_expression
from typing_literalstring.checkers import Checker
from typing_literalstring.checkers.asking import Probe
from typing_literalstring.core.source_edits import byte_offsets, segment


def probe_insertions(
    source: str,
    found: Sequence[Look],
    instrumented: Instrumented,
    checker: Checker,
    probe: Probe,
) -> tuple[list[tuple[int, bytes]], list[tuple[int, bytes]]]:
    """The insertions that put each look's questions next to it (see the module's docstring):
    those that open, outer ones first, and those that close, inner ones first.  The text is
    asked about and judged; its parts, where their types come from, the callee and the
    receiver are asked about.  A node that spans lines or is misplaced (f-strings before
    Python 3.12) is not asked about; the import of the probe is the caller's business."""
    data, offsets = source.encode("utf-8"), byte_offsets(source)
    opens: list[tuple[int, int, bytes]] = []
    closes: list[tuple[int, int, bytes]] = []
    for look in found:
        if not look.revealable:
            continue
        texts = look.texts
        nodes = [
            *texts,
            *look.parts,
            *(n for p in look.parts for n in origin_nodes(p, instrumented)),
        ]
        if look.callee is not None:
            nodes.append(look.callee)
        nodes += look.constructors
        for extra in (look.receiver, look.owner):
            if extra is not None:
                nodes.append(extra)
        asks: list[str] = []
        for node in {id(n): n for n in nodes}.values():
            text = _one_line(data, offsets, node)
            if text is not None:
                tag = instrumented.tag(node)
                judge = any(node is t for t in texts)
                asks += checker.ask(probe, text, tag, judge=judge, bind=look.bind)
        if not asks:
            continue
        around = look.wrap or look.call
        assert around.end_lineno is not None
        assert around.end_col_offset is not None
        start = offsets[around.lineno - 1] + around.col_offset
        end = offsets[around.end_lineno - 1] + around.end_col_offset
        # The asks come after the call: mypy keeps only the first of two equal messages on a
        # line, and the original's must be the one kept.
        if look.wrap is None and look.statement is not None:
            statement = look.statement
            assert statement.end_lineno is not None
            assert statement.end_col_offset is not None
            at = offsets[statement.end_lineno - 1] + statement.end_col_offset
            closes.append((at, len(data), "".join(f"; {a}" for a in asks).encode()))
            continue
        opens.append((start, start - end, b"("))
        closes.append((end, end - start, f", {', '.join(asks)})[0]".encode()))
    return [(o, t) for o, _, t in sorted(opens)], [(o, t) for o, _, t in sorted(closes)]


def _one_line(data: bytes, offsets: Sequence[int], node: ast.expr) -> str | None:
    """The node's text on one line, parenthesized (`yield x` or a generator without its own
    parentheses stays one item), so that no line moves; None when a reveal cannot copy it."""
    unparse: Callable[[ast.AST], str] | None = getattr(ast, "unparse", None)
    if unparse is not None:  # Python 3.9+: the tree's own text, whatever its lines
        return f"({unparse(node)})"
    if node.lineno != node.end_lineno or not same_expression(data, offsets, node):
        return None  # Python 3.8 misplaces the nodes inside an f-string
    return f"({segment(data, offsets, node)})"


__all__ = ["probe_insertions"]
