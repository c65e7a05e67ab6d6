# MarkupSafe (base: its inline types): Markup(text) declares `text` safe HTML, so a non-literal
# string there is cross-site scripting.  Values are escaped by Markup's `%`, `format`, `+` and
# `join`, and an object with `__html__` (another Markup, escape()'s result) is safe already.
from typing import Protocol

from typing_extensions import LiteralString

from typing_literalstring.stubspec import added

# MarkupSafe 3.x calls this protocol `_HasHTML`, 2.x `HasHTML` (only while type checking).
@added
class _TypingLiteralStringHasHTML(Protocol):
    def __html__(self) -> str: ...

class Markup:
    # Positional-only: by position, for MarkupSafe 2.x names it `base`, 3.x `object`.
    def __new__(cls, object: LiteralString | _TypingLiteralStringHasHTML, /): ...
