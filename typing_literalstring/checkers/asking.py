"""How ``check`` asks a checker what an expression is, and what an answer is made of.

Every sink call's verdict is the checker's own answer about the text the sink receives, asked in
the one tightened run: the probed copy of the file (``analysis.probes``) evaluates, next to the
call, the text given to a *judge* of ours, a function whose overloads say what the checker
thinks of its argument in words of our own:

- ``TlsLiteral``: the overload taking ``LiteralString`` matched: the text is literal;
- ``TlsText``: only the overload taking ``str`` matched: the text is a plain string;
- ``TlsOther``: neither matched: the text is not only a string (``str | None``, bytes);
- ``Any``/``Unknown``: the checker could not tell (an Any argument matches every overload).

Those words are the whole answer, so no message wording, language, position or crafted literal
of the checked code can make one up.  The checker also reveals the text's own type and its parts'
(``reveal_type``), which name an Any the judge misses (pyright matches ``LiteralString | Any``
with the LiteralString overload) and explain a finding; they can withhold a proof, never make
one.

The probe module's name and the names the copy binds carry a secret of this user's cache (never
of the checked project), so that no module or name of the project can stand in for them.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from typing_literalstring.checkers import type_text


class Judgement(Enum):
    LITERAL = "literal"
    TEXT = "text"
    OTHER = "other"
    ANY = "any"


_JUDGED = {"TlsLiteral": Judgement.LITERAL, "TlsText": Judgement.TEXT, "TlsOther": Judgement.OTHER}
# A judge's answer is tagged apart from a type's: tags below this are types, above judgements.
JUDGED = 1 << 20


@dataclass(frozen=True)
class Probe:
    """The names of one user's probes (see the module's docstring)."""

    secret: str  # hex digits

    @property
    def module(self) -> str:
        return f"_tls_probe_{self.secret}"

    @property
    def judge(self) -> str:
        """The judge as the copies import it."""
        return f"_tls_judge_{self.secret}"

    @property
    def reveal(self) -> str:
        """The plugin's reveal, for mypy (its own writes LiteralString as ``str``)."""
        return f"_tls_reveal_{self.secret}"

    @property
    def judged(self) -> str:
        """The plugin's judge, for mypy: answered once the module is checked, when the plugin
        knows its literal constants (typing_literalstring/mypy/checks.py)."""
        return f"_tls_judged_{self.secret}"

    def variable(self, tag: int) -> str:
        """A name a copy binds a revealed expression to (pyright prints the expression)."""
        return f"_tls_{self.secret}_{tag}"

    def import_line(self) -> str:
        return (
            f"from {self.module} import judge as {self.judge}, judged as {self.judged}, "
            f"reveal as {self.reveal}  # typing-literalstring probe\n"
        )

    def stub(self) -> str:
        return _STUB


_STUB = """\
# mypy: disable-error-code="overload-overlap, overload-cannot-match"
from typing import TypeVar, final, overload
from typing_extensions import LiteralString

_T = TypeVar("_T")

@final
class TlsLiteral: ...
@final
class TlsText: ...
@final
class TlsOther: ...

@overload
def judge(value: LiteralString, /) -> TlsLiteral: ...
@overload
def judge(value: str, /) -> TlsText: ...
@overload
def judge(value: object, /) -> TlsOther: ...
def judged(value: _T, tag: int, /) -> _T: ...
def reveal(value: _T, tag: int, /) -> _T: ...
"""

_SECRET_FILE = "probe-secret"


def probe_for(cache_root: Path) -> Probe:
    """This user's probe names: a secret kept in the cache folder (made on first use), so
    that the copies of an unchanged file stay the same from one check to the next (mypy's
    incremental cache) while no checked project can know them.  Checks started together
    agree on one: the first secret linked into place wins."""
    path = cache_root / _SECRET_FILE
    found = _read_secret(path)
    if found is not None:
        return Probe(found)
    secret = secrets.token_hex(8)
    try:
        cache_root.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=cache_root, prefix=".probe-secret-")
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(secret)
        try:
            os.link(temporary, path)
        except OSError:
            pass  # another check linked its secret first: that one is read below
        finally:
            os.unlink(temporary)
    except OSError:
        return Probe(secret)  # an unwritable cache: a secret for this check alone
    return Probe(_read_secret(path) or secret)


def _read_secret(path: Path) -> str | None:
    try:
        secret = path.read_text("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if len(secret) == 16 and all(c in "0123456789abcdef" for c in secret):
        return secret
    return None


@dataclass(frozen=True)
class Answer:
    """What the checker revealed about one probed expression."""

    tag: int
    text: str  # the type as the checker printed it
    judged: bool = False  # the judge's answer (its words only), not a type
    # Read from a message that also prints the expression, where a literal string of the
    # checked code might have misplaced the reading: such an answer can withhold a proof but
    # not make one (``Checker.answer``).
    exact: bool = True


def judgement(answer: Answer, probe: Probe) -> Judgement | None:
    """The judge's words, combined over a union (``TlsLiteral | TlsText``: not all literal);
    None when the text holds anything else."""
    found: set[Judgement] = set()
    try:
        members = type_text.members(answer.text)
    except type_text.Malformed:
        return None
    for member in members:
        name = member.strip()
        if name.startswith(f"{probe.module}."):
            name = name[len(probe.module) + 1 :]
        if name in type_text.ANY_MEMBERS:
            found.add(Judgement.ANY)
        elif name in _JUDGED:
            found.add(_JUDGED[name])
        else:
            return None
    for worst in (Judgement.ANY, Judgement.OTHER, Judgement.TEXT, Judgement.LITERAL):
        if worst in found:
            return worst
    return None


__all__ = ["JUDGED", "Answer", "Judgement", "Probe", "judgement", "probe_for"]
