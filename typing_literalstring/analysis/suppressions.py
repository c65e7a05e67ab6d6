"""Inline suppressions: ``# typing-literalstring: ignore[LS101] reason``.

One comment silences the named rules for the statement it is written in (on any of its
lines), and says why after the brackets.  The form follows the checkers' own
(``# pyright: ignore[rule]``, ``# type: ignore[code]``): the tool's name, so no other tool's
comment silences a security finding by accident, and the rules in brackets, required, so a
comment never silences more than it names.
"""

from __future__ import annotations

import re
import tokenize
from dataclasses import dataclass
from typing import Sequence

_MARKER = re.compile(r"#\s*typing-literalstring\s*:\s*ignore\b(?P<rest>.*)", re.IGNORECASE)
_CODES = re.compile(r"^\[(?P<codes>[^\]]*)\](?P<reason>.*)$")
_CODE = re.compile(r"^LS\d{3}$")
FORM = "# typing-literalstring: ignore[LS101] reason"


@dataclass(frozen=True)
class Suppression:
    path: str
    line: int
    codes: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Malformed:
    """A comment that means to suppress but names no valid rule: it suppresses nothing."""

    path: str
    line: int
    text: str

    @property
    def problem(self) -> str:
        return (
            f"this suppression names no rule, so it silences nothing: write {FORM!r} "
            f"(got {self.text!r})"
        )


def read(path: str, tokens: Sequence[tokenize.TokenInfo]) -> list[Suppression | Malformed]:
    """The suppression comments among a file's tokens (comments only, never strings)."""
    found: list[Suppression | Malformed] = []
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        marker = _MARKER.search(token.string)
        if marker is None:
            continue
        bracketed = _CODES.match(marker["rest"].strip())
        codes = tuple(c.strip().upper() for c in bracketed["codes"].split(",")) if bracketed else ()
        if not codes or not all(_CODE.match(c) for c in codes):
            found.append(Malformed(path, token.start[0], token.string.strip()))
            continue
        reason = bracketed["reason"].strip().lstrip("-:").strip() if bracketed else ""
        found.append(Suppression(path, token.start[0], codes, reason))
    return found
