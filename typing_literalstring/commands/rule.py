"""``typing-literalstring rule``: a rule's documentation page, as ``ruff rule`` prints it, or the
list of every rule."""

from __future__ import annotations

import argparse

from typing_literalstring.commands import EXIT_OK
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.report import rule_pages
from typing_literalstring.specs.sinks import RULES


def command(args: argparse.Namespace) -> int:
    if args.all:
        rows = rule_pages.summary_table()
        width = max(len(name) for _, name, _ in rows)
        # One write: a reader that stops early (`| head`) finds it whole in the pipe.
        print("\n".join(f"{id_}  {name:<{width}}  {summary}" for id_, name, summary in rows))
        return EXIT_OK
    if args.rule_id is None:
        raise TypingLiteralStringError(
            f"name a rule (one of {_valid_ids()}), or give --all to list them"
        )
    rule = rule_pages.rule_by_id(args.rule_id)
    if rule is None:
        raise TypingLiteralStringError(
            f"unknown rule {args.rule_id!r}: the rules are {_valid_ids()} "
            "(`typing-literalstring rule --all` lists them)"
        )
    print(rule_pages.page(rule.id), end="")
    return EXIT_OK


def _valid_ids() -> str:
    return ", ".join(rule.id for rule in RULES)
