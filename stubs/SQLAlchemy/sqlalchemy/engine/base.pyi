# SQLAlchemy (base: its inline types): exec_driver_sql hands its statement to the DBAPI cursor.
from typing_extensions import LiteralString

class Connection:
    def exec_driver_sql(self, statement: LiteralString): ...
