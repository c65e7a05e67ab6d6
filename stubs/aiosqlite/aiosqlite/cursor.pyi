# aiosqlite (base: its inline types): the cursor's execute methods, as for sqlite3; values go in
# `parameters`.  Connection.execute and its siblings are not tightened: aiosqlite's own
# `@contextmanager` types them `Callable[..., Result[T]]`, which erases their parameters, so no
# checker sees a `sql` parameter there (docs/third-party-overrides.md).
from typing_extensions import LiteralString

class Cursor:
    def execute(self, sql: LiteralString): ...
    def executemany(self, sql: LiteralString): ...
    def executescript(self, sql_script: LiteralString): ...
