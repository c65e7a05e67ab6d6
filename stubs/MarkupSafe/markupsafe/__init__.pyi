# MarkupSafe (base: its inline types): Markup(text) declares `text` safe HTML, so a non-literal
# string there is cross-site scripting.  Values are escaped by Markup's `%`, `format`, `+` and
# `join`, and an object with `__html__` (another Markup, escape()'s result) is safe already.
from typing_extensions import LiteralString

class Markup:
    def __new__(cls, object: LiteralString | _HasHTML): ...
