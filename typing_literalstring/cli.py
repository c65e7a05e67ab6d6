"""The ``typing-literalstring`` command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from . import __version__
from .checkers import CHECKERS, get_checker
from .errors import TypingLiteralStringError
from .overlay import LAYOUTS, build_overlay
from .tighten import PROFILES

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2


def _stubs(args: argparse.Namespace) -> int:
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


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="typing-literalstring",
        description="Make type checkers reject non-literal SQL, shell and logging strings.",
    )
    main.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = main.add_subparsers(dest="command", required=True, metavar="COMMAND")

    stubs = commands.add_parser(
        "stubs",
        help="build the tightened stubs (an overlay) for a checker",
        description="Build the tightened stdlib stubs from a checker's own typeshed into --out.",
    )
    stubs.add_argument("--checker", choices=sorted(CHECKERS), default="pyright")
    stubs.add_argument("--out", required=True, help="the folder to write (replaced if present)")
    stubs.add_argument("--profile", choices=PROFILES, default="default")
    stubs.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="overlay",
        help="overlay: only the replaced modules; full: a complete replacement typeshed "
        "(always full for pyrefly, which honours nothing else)",
    )
    stubs.add_argument(
        "--typeshed", help="build from this typeshed folder instead of the checker's own"
    )
    stubs.set_defaults(run=_stubs)
    return main


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        result: int = args.run(args)
    except TypingLiteralStringError as error:
        print(f"typing-literalstring: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    return result
