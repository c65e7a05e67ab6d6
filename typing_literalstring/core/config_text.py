"""A configuration file read and written back as its author wrote it: encoding, byte order
mark, line endings and final newline.

``init`` edits files the team owns (pyproject.toml, mypy.ini, setup.cfg, pyrightconfig.json,
ty.toml, pyrefly.toml).  Reading one with ``read_text`` turns CRLF into LF, and writing it
back made every line of a Windows-style pyproject.toml show as changed (issue 43, item 8).
So the editors work on a normalised text (LF, no byte order mark) and ``restore`` puts back
what the file had: each line kept from the original keeps its own ending, each new line gets
the ending most of the file uses, and a file that ended without a newline still does.

Only UTF-8 is edited (TOML requires it; mypy reads its INI files in the locale's encoding,
UTF-8 almost everywhere): a file in another encoding is refused with what to add by hand.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from typing_literalstring.core.errors import TypingLiteralStringError

BOM = "\ufeff"


class NotEditableError(TypingLiteralStringError):
    """A configuration file init cannot edit safely; the message says why."""


@dataclass(frozen=True)
class ConfigText:
    """One file's text as the editors see it, and what is needed to write it back."""

    path: Path
    text: str  # "\n" line endings, no byte order mark: what the editors work on
    original: str  # as decoded, with its own line endings ("" for a file that is not there)
    bom: bool
    exists: bool

    def restore(self, edited: str) -> str:
        """``edited`` (the normalised text, changed) with the file's byte order mark, line
        endings and final newline (or its absence) put back."""
        if not self.exists:
            return edited
        old_lines = self.original.split("\n")
        # Each line of the original that a newline ends: its ending ("\r\n" or "\n").
        endings = ["\r\n" if line.endswith("\r") else "\n" for line in old_lines[:-1]]
        plain = [line[:-1] if line.endswith("\r") else line for line in old_lines[:-1]]
        plain.append(old_lines[-1])
        crlf = endings.count("\r\n")
        usual = "\r\n" if crlf > len(endings) - crlf else "\n"
        new_lines = edited.split("\n")
        chosen = [usual] * (len(new_lines) - 1)
        matcher = difflib.SequenceMatcher(a=plain, b=new_lines, autojunk=False)
        for tag, a0, a1, b0, _ in matcher.get_opcodes():
            if tag == "equal":
                for offset in range(a1 - a0):
                    if a0 + offset < len(endings) and b0 + offset < len(chosen):
                        chosen[b0 + offset] = endings[a0 + offset]
        text = "".join(line + ending for line, ending in zip(new_lines, chosen)) + new_lines[-1]
        if self.original and not self.original.endswith("\n") and text.endswith("\n"):
            text = text[: -len(chosen[-1])] if chosen else text
        return (BOM if self.bom else "") + text


def read_config(path: Path) -> ConfigText:
    """``path``'s text for editing; a file that is not there reads as empty."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ConfigText(path, "", "", bom=False, exists=False)
    except OSError as error:
        raise NotEditableError(f"cannot read {path}: {error.strerror or error}") from error
    try:
        original = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotEditableError(
            f"{path} is not UTF-8 ({error.reason} at byte {error.start}), and init edits only "
            "UTF-8 files"
        ) from error
    bom = original.startswith(BOM)
    original = original[len(BOM) :] if bom else original
    return ConfigText(path, original.replace("\r\n", "\n"), original, bom=bom, exists=True)
