# SQLAlchemy (base: its inline types): text() is raw SQL; values go in bound parameters
# (text("... WHERE id = :id"), then .bindparams() or the execute parameters).
from typing_extensions import LiteralString

def text(text: LiteralString): ...
