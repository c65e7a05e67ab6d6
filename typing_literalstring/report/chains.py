"""Where a finding through the project's own wrappers goes: each wrapper's parameter the text
comes in by, and the call it goes on through, down to the sink.

A finding names its chain in words (``Finding.through``: ``"find_user(user_id)",
"conn.execute"``); the wrappers themselves (``analysis.wrappers``: each with its file, the line
of its ``def`` and the call its parameter reaches) are found again from the checked files, as
``check`` found them, and matched by that chain.  The language server shows these places as a
diagnostic's related information, the JSON output as ``through_places`` and SARIF as
``relatedLocations``: one derivation, so that the three say the same.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

from typing_literalstring.analysis import probes
from typing_literalstring.analysis.findings import CheckResult, Finding
from typing_literalstring.analysis.statements import all_nodes
from typing_literalstring.analysis.wrapper_calls import Wrapper
from typing_literalstring.core.project import search_paths
from typing_literalstring.report.texts import Texts, characters

Chains = Dict[Tuple[str, ...], List[Wrapper]]


@dataclass(frozen=True)
class ChainPlace:
    """A wrapper's parameter the text comes in by, or the call it goes on through."""

    path: str  # as the check named the wrapper's file
    node: ast.arg | ast.Call
    function: str  # the wrapper, as the chain names it: "run_sql(sql)"
    # What the call reaches, as the chain names it (the next wrapper, or the sink with its
    # API); "" for a parameter.
    call: str
    message: str  # what the place is, in a sentence's words

    def start(self, texts: Texts) -> tuple[int, int]:
        """Its 1-based line and 1-based column in characters (``ast`` counts UTF-8 bytes)."""
        line = self.node.lineno
        return line, characters(texts.line(self.path, line), self.node.col_offset) + 1


def _wrappers_by_hops(result: CheckResult) -> Chains:
    """The project's wrappers by the wrappers of their chain (all of it but the sink): those
    the check found its calls reach (every hop of a chain is a call of the next wrapper), else
    found again from the files."""
    every = result.wrappers
    if every is None:
        paths = [Path(p) for p in result.paths]
        _, found, _ = probes.with_wrappers(paths, search_paths(result.project))
        every = tuple(w for wrappers in found.values() for w in wrappers)
    chains: Chains = {}
    for wrapper in every:
        chains.setdefault(wrapper.chain[:-1], []).append(wrapper)
    return chains


def _wrapper(chains: Chains, through: tuple[str, ...]) -> Wrapper | None:
    """The wrapper whose chain is ``through``: a finding names its sink with the sink's API
    after it ("conn.execute (sqlite3 Connection/Cursor.execute)"), the wrapper by its callee."""
    sink = through[-1]
    return next(
        (
            w
            for w in chains.get(through[:-1], [])
            if sink == w.chain[-1] or sink.startswith(w.chain[-1] + " ")
        ),
        None,
    )


def _parameter(tree: ast.Module, wrapper: Wrapper) -> ast.arg | None:
    name = wrapper.parameter.lstrip("*")
    for node in all_nodes(tree):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.lineno == wrapper.line
        ):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
            return next((a for a in every if a.arg == name), None)
    return None


def _call(tree: ast.Module, line: int, column: int) -> ast.Call | None:
    """The call starting at ``line`` and 1-based UTF-8 ``column`` (a wrapper's ``site``)."""
    return next(
        (
            node
            for node in all_nodes(tree)
            if isinstance(node, ast.Call) and node.lineno == line and node.col_offset + 1 == column
        ),
        None,
    )


def _places(finding: Finding, chains: Chains, texts: Texts) -> list[ChainPlace]:
    places: list[ChainPlace] = []
    for index in range(len(finding.through) - 1):
        wrapper = _wrapper(chains, finding.through[index:])
        if wrapper is None:
            break  # the chain is no longer found (a file changed since the check)
        tree = texts.read(wrapper.path)[1]
        if tree is None:
            break
        function = finding.through[index]
        parameter = _parameter(tree, wrapper)
        if parameter is not None:
            said = f"the text comes into {wrapper.name} by its parameter {wrapper.parameter}"
            places.append(ChainPlace(wrapper.path, parameter, function, "", said))
        call = _call(tree, *wrapper.site)
        if call is not None:
            after = finding.through[index + 1]
            last = index == len(finding.through) - 2
            said = f"and reaches the sink {after}" if last else f"and goes on to {after}"
            places.append(ChainPlace(wrapper.path, call, function, after, said))
    return places


def chain_places(
    result: CheckResult, texts: Texts, findings: Iterable[Finding] | None = None
) -> dict[Finding, list[ChainPlace]]:
    """The places of each finding with a chain, of ``findings`` (default: the result's),
    none for a chain no longer found."""
    through = [f for f in (result.findings if findings is None else findings) if f.through]
    if not through:
        return {}
    chains = _wrappers_by_hops(result)
    return {f: _places(f, chains, texts) for f in through}
