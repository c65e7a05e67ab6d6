# Django (base: django-stubs): RawSQL's text goes into the query as it is; values in `params`.
from typing_extensions import LiteralString

class RawSQL:
    def __init__(self, sql: LiteralString): ...
