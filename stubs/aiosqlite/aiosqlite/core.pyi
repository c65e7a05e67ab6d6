# aiosqlite (base: its inline types): Connection's execute helpers take the SQL text, as
# sqlite3's do; values go in `parameters`.  aiosqlite declares them through its own
# `@contextmanager`, typed `Callable[..., Result[T]]`, which erases every parameter, so each
# definition is replaced whole, with the type that decorator gives its result.
from typing_extensions import LiteralString

from aiosqlite.context import Result
from typing_literalstring.stubspec import replaced

class Connection:
    @replaced
    def execute(
        self, sql: LiteralString, parameters: Optional[Iterable[Any]] = None
    ) -> Result[Cursor]: ...
    @replaced
    def execute_insert(
        self, sql: LiteralString, parameters: Optional[Iterable[Any]] = None
    ) -> Result[Optional[sqlite3.Row]]: ...
    @replaced
    def execute_fetchall(
        self, sql: LiteralString, parameters: Optional[Iterable[Any]] = None
    ) -> Result[Iterable[sqlite3.Row]]: ...
    @replaced
    def executemany(
        self, sql: LiteralString, parameters: Iterable[Iterable[Any]]
    ) -> Result[Cursor]: ...
    @replaced
    def executescript(self, sql_script: LiteralString) -> Result[Cursor]: ...
