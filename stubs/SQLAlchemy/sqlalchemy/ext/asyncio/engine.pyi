# SQLAlchemy (base: its inline types): the asyncio connection's exec_driver_sql, as the sync one.
from typing_extensions import LiteralString

class AsyncConnection:
    def exec_driver_sql(self, statement: LiteralString): ...
