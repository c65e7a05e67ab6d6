"""A checker out of memory on the whole project: check the rest without the largest files.

A generated module of 20 MB ran pyright out of memory after minutes, and every finding of the
project was lost.  The largest files are the likely cause, and rarely the code under review:
the run is made again without the largest files, which are reported as not checked, with the
reason (exit status 2), and the findings of all the other files are kept.
"""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import Callable

from typing_literalstring.analysis.findings import Unparsable
from typing_literalstring.analysis.parsed import Parsed
from typing_literalstring.checkers import RunResult
from typing_literalstring.checkers.out_of_memory import (
    CheckerOutOfMemoryError,
    file_size,
    largest_first,
    size_of,
)


def largest_half(files: set[str]) -> list[Path]:
    """The largest files, as few as hold half the bytes of ``files``; never all of them."""
    ordered = largest_first([Path(f) for f in files])
    remaining = total = sum(max(file_size(f), 0) for f in ordered)
    left: list[Path] = []
    for file in ordered[: len(files) - 1]:
        if remaining <= total / 2:
            break
        left.append(file)
        remaining -= max(file_size(file), 0)
    return left


def without_largest(
    files: set[str],
    error: CheckerOutOfMemoryError,
    run_on: Callable[[set[str]], RunResult | None],
    parsing: Future[tuple[dict[str, Parsed], list[Unparsable]]],
) -> tuple[set[str], RunResult | None]:
    """Run again without the files ``largest_half`` picks (the checker ran out of memory on
    ``files``: ``error``); they leave the parse results for their unparsable list, with the
    reason.  The files checked, and the run.  Out of memory again: an error naming them."""
    left = largest_half(files)
    if not left:
        raise error
    kept = files - {str(f) for f in left}
    try:
        run = run_on(kept)
    except CheckerOutOfMemoryError as again:
        raise CheckerOutOfMemoryError(
            again.checker, [Path(f) for f in files], said=again.said, left_out=left
        ) from again
    parsed, unparsable = parsing.result()
    for file in left:
        parsed.pop(str(file), None)
        unparsable.append(
            Unparsable(
                str(file),
                1,
                f"left out: {error.what} checking all {len(files)} files, and this is one of "
                f"the largest ({size_of(file)}); the other files were checked without it.  "
                "Leave it out with `exclude` in the [tool.typing-literalstring] table of "
                f"pyproject.toml, or check it apart with more memory{error.checker.memory_hint}",
            )
        )
    return kept, run
