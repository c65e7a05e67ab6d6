# psycopg2.sql.SQL(text) is composed without escaping: its text must be literal, and values and
# names go in through Literal(...) and Identifier(...).
from typing_extensions import LiteralString

class SQL:
    def __init__(self, string: LiteralString): ...
