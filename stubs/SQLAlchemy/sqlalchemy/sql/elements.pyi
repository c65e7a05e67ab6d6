# SQLAlchemy (base: its inline types): TextClause is what text() builds, constructed directly.
from typing_extensions import LiteralString

class TextClause:
    def __init__(self, text: LiteralString): ...
