"""The errors this package raises: each message names the problem and the fix."""

from __future__ import annotations


class TypingLiteralStringError(Exception):
    """Base class: anything that stops a command, with a message meant for the user."""


class CheckerNotFoundError(TypingLiteralStringError):
    """A checker (or its bundled typeshed) is not installed where we look."""


class CheckerFailedError(TypingLiteralStringError):
    """A checker crashed, refused its arguments, or printed output we cannot read."""


class SpecError(TypingLiteralStringError):
    """A stub specification does not match the base typeshed it is applied to."""


class BaselineError(TypingLiteralStringError):
    """A baseline file cannot be read or written."""
