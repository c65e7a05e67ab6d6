"""Where a finding through the project's own wrappers goes: each wrapper's parameter the text
comes in by, and the call it goes on through, down to the sink.

A finding names its chain in words (``Finding.through``: ``"find_user(user_id)",
"conn.execute"``); the wrappers themselves (``analysis.wrappers``: each with its file, the line
of its ``def`` and the call its parameter reaches) are found again from the checked files, as
``check`` found them, and matched by that chain.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from typing_literalstring.analysis import probes
from typing_literalstring.analysis.findings import CheckResult, Finding
from typing_literalstring.analysis.statements import all_nodes
from typing_literalstring.analysis.wrapper_calls import Wrapper
from typing_literalstring.commands.server.conversion import Texts, node_place
from typing_literalstring.commands.server.messages import Related
from typing_literalstring.core.project import search_paths

Chains = Dict[Tuple[str, ...], List[Wrapper]]


def _wrappers_by_hops(result: CheckResult) -> Chains:
    """The project's wrappers by the wrappers of their chain (all of it but the sink)."""
    paths = [Path(p) for p in result.paths]
    _, found, _ = probes.with_wrappers(paths, search_paths(result.project))
    chains: Chains = {}
    for wrappers in found.values():
        for wrapper in wrappers:
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


def _hops(finding: Finding, chains: Chains, texts: Texts, encoding: str) -> list[Related]:
    related: list[Related] = []
    for index in range(len(finding.through) - 1):
        wrapper = _wrapper(chains, finding.through[index:])
        if wrapper is None:
            break
        tree = texts.read(wrapper.path)[1]
        if tree is None:
            break
        parameter = _parameter(tree, wrapper)
        if parameter is not None:
            related.append(
                Related(
                    node_place(texts, wrapper.path, parameter, encoding),
                    f"the text comes into {wrapper.name} by its parameter {wrapper.parameter}",
                )
            )
        call = _call(tree, *wrapper.site)
        if call is not None:
            after = finding.through[index + 1]
            last = index == len(finding.through) - 2
            related.append(
                Related(
                    node_place(texts, wrapper.path, call, encoding),
                    f"and reaches the sink {after}" if last else f"and goes on to {after}",
                )
            )
    return related


def related_places(
    result: CheckResult, texts: Texts, encoding: str
) -> dict[Finding, Sequence[Related]]:
    """The related places of each finding with a chain (none for a chain no longer found)."""
    through = [f for f in result.findings if f.through]
    if not through:
        return {}
    chains = _wrappers_by_hops(result)
    return {f: _hops(f, chains, texts, encoding) for f in through}
