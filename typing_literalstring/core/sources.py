"""The checked project's Python files, read as Python reads them.

Python decodes a source file from its bytes (a UTF-8 byte order mark, else a PEP 263 coding
cookie, else UTF-8), reads ``\\r\\n``, ``\\r`` and ``\\n`` as line breaks and nothing else
(``str.splitlines`` also breaks at U+2028, U+0085, ``\\f`` and ``\\v``, which may sit inside a
string literal), and parses with the grammar of the Python version the project targets.  Every
line number and excerpt of a finding comes from here, so that it names the line the checker
names.
"""

from __future__ import annotations

import ast
import hashlib
import io
import os
import re
import stat
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from typing_literalstring.core import grammar

# The line breaks of Python's tokenizer (universal newlines), and no others.
_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Source:
    """One file as it was read: its bytes (to notice a change later), its text with line breaks
    made ``\\n``, and the text our parser reads (the same, or newer grammar rewritten to the
    host's, every byte at its place: see ``grammar``)."""

    path: Path
    digest: str
    text: str
    parsable: str
    # The newest grammar the file needs beyond the Python running us ("3.12"), or None.
    needs: str | None

    def line(self, number: int) -> str:
        """Line ``number`` (1-based) without its line break; "" past the end."""
        lines = self.text.split("\n")
        return lines[number - 1] if 0 < number <= len(lines) else ""


def lines(text: str, keepends: bool = False) -> list[str]:
    """``text`` split at the line breaks the tokenizer counts (``\\r\\n``, ``\\r``, ``\\n``)."""
    if not keepends:
        return _BREAK.split(text)
    parts: list[str] = []
    start = 0
    for match in _BREAK.finditer(text):
        parts.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        parts.append(text[start:])
    return parts


def decode(data: bytes) -> str:
    """``data`` decoded as Python decodes a source file, line breaks made ``\\n``.

    Raises SyntaxError for an unknown or contradicting coding cookie and UnicodeDecodeError
    for bytes that are not in the file's encoding, as the interpreter would.
    """
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)  # "utf-8-sig" drops the byte order mark
    return text.replace("\r\n", "\n").replace("\r", "\n")


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def read(path: Path) -> tuple[Source, ast.Module]:
    """``path`` read, decoded and parsed.

    Raises OSError if it cannot be read, SyntaxError or ValueError (a bad encoding, a null
    byte) if Python would refuse it.  A file in a grammar newer than the running Python's is
    parsed through ``grammar.downlevel``; its ``needs`` says which.
    """
    data = path.read_bytes()
    text = decode(data)
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as error:
        rewritten = grammar.downlevel(text)
        if rewritten is None:
            raise
        try:
            tree = ast.parse(rewritten.text, filename=str(path))
        except SyntaxError:
            raise error from None
        return Source(path, digest(data), text, rewritten.text, rewritten.needs), tree
    return Source(path, digest(data), text, text, None), tree


def digests(paths: Iterable[Path]) -> dict[Path, str]:
    """Each file's digest now ("" if it cannot be read)."""
    found: dict[Path, str] = {}
    for path in paths:
        try:
            found[path] = digest(path.read_bytes())
        except OSError:
            found[path] = ""
    return found


def not_read(path: Path, root: Path) -> str | None:
    """Why ``path`` must not be read as a file of the project at ``root``, or None.

    A checkout can hold symbolic links named like modules: to ``/dev/zero`` or a pipe (reading
    never ends) or to a file outside the project (``/proc/self/environ``, a key), whose text
    would end up in excerpts and logs.  Neither is project code."""
    try:
        status = os.stat(path)  # follows the link, as reading would
    except OSError as error:
        return f"cannot be read: {error.strerror}"
    if not stat.S_ISREG(status.st_mode):
        return "not a regular file (a device or a pipe, or a link to one): not read"
    target = path.resolve()
    try:
        target.relative_to(root.resolve())
    except ValueError:
        try:
            path.absolute().relative_to(root.absolute())
        except ValueError:
            # Named from outside the project: a file of another project, checked from there.
            return (
                f"outside the project at {root} (the first path given decides it; check this "
                "file from its own project): not read"
            )
        return f"a symbolic link out of the project (to {target}): not read"
    return None


def host_version() -> str:
    return f"{sys.version_info[0]}.{sys.version_info[1]}"
