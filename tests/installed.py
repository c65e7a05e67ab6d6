"""The checkers a test needs: skipped with the reason when one is not installed here."""

from __future__ import annotations

import pytest

from typing_literalstring.checkers import CHECKERS, Checker


def installed_checker(name: str) -> Checker:
    """The checker ``name``, or skip the test saying it is missing."""
    checker = CHECKERS[name]
    if not checker.is_installed():
        pytest.skip(f"{name} is not installed")
    return checker
