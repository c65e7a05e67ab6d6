"""``python -m typing_literalstring``: the command, with its signal handling installed first."""

from __future__ import annotations

from typing_literalstring.commands.entry import main

main()
