"""A finding's chain through the project's own wrappers as a diagnostic's related information:
the places ``report.chains`` finds (as the JSON and SARIF outputs do), in the editor's
position encoding."""

from __future__ import annotations

from typing import Sequence

from typing_literalstring.analysis.findings import CheckResult, Finding
from typing_literalstring.commands.server.conversion import node_place
from typing_literalstring.commands.server.messages import Related
from typing_literalstring.report.chains import chain_places
from typing_literalstring.report.texts import Texts


def related_places(
    result: CheckResult, texts: Texts, encoding: str
) -> dict[Finding, Sequence[Related]]:
    """The related places of each finding with a chain (none for a chain no longer found)."""
    return {
        finding: [Related(node_place(texts, p.path, p.node, encoding), p.message) for p in places]
        for finding, places in chain_places(result, texts).items()
    }
