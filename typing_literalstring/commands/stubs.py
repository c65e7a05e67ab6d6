"""``typing-literalstring stubs``: write the tightened standard-library stubs for a checker to a
folder, for a setup that wires them in by hand."""

from __future__ import annotations

import argparse
from pathlib import Path

from typing_literalstring.checkers import get_checker
from typing_literalstring.commands import EXIT_OK
from typing_literalstring.specs.overlay import build_overlay


def command(args: argparse.Namespace) -> int:
    checker = get_checker(args.checker)
    base = Path(args.typeshed) if args.typeshed else checker.overlay_base()
    layout = "full" if checker.needs_full_typeshed else args.layout
    overlay = build_overlay(base, Path(args.out), profile=args.profile, layout=layout)
    print(
        f"built the {args.profile} {layout} overlay for {checker.name} from {base} "
        f"in {overlay.root}"
    )
    for target in sorted(overlay.files):
        print(f"  tightened {target}")
    return EXIT_OK
