# sqlite-utils (base: its inline types, 3.30 to 4.x): a library on sqlite3 whose methods run the
# caller's SQL text as it is.  Values go in `parameters`/`params`/`where_args` (`?` or `:name`);
# table and column names given as names (`db[name]`, `columns=`, `pk=`) are quoted by the library
# and are no SQL text.
#
# Tightened: what is pasted into a statement unquoted.
# - Database.execute, executescript, query, execute_returning_dicts: the statement itself.
# - Database.create_view: `sql` becomes the view's body (`CREATE VIEW name AS {sql}`).
# - where=, order_by=, select=: fragments pasted after `where`, `order by`, `select`
#   (rows_where, count_where, pks_and_rows_where, delete_where, convert, search, search_sql).
#
# Left as they are, and why:
# - `conversions=` (insert, upsert, update, Table(...)): a dict of SQL expressions per column
#   (`{"name": "upper(?)"}`).  A dict built in a variable is `dict[str, str]` to every checker,
#   so tightening its values would refuse literal-only dicts; its expressions stay unchecked.
# - search(q): the query is bound as a parameter; `quote=True` only escapes FTS syntax.
# - the `sqlite-utils` command line: its arguments are the user's own SQL by design.
from typing import Optional

from typing_extensions import LiteralString

class Database:
    def query(self, sql: LiteralString): ...
    def execute(self, sql: LiteralString): ...
    def executescript(self, sql: LiteralString): ...
    def execute_returning_dicts(self, sql: LiteralString): ...
    def create_view(self, name, sql: LiteralString): ...

class Queryable:
    def count_where(self, where: Optional[LiteralString]): ...
    def rows_where(
        self,
        where: Optional[LiteralString],
        order_by: Optional[LiteralString],
        select: LiteralString,
    ): ...
    def pks_and_rows_where(self, where: Optional[LiteralString], order_by: Optional[LiteralString]): ...

class Table:
    def delete_where(self, where: Optional[LiteralString]): ...
    def convert(self, where: Optional[LiteralString]): ...
    def search(self, order_by: Optional[LiteralString], where: Optional[LiteralString]): ...
    def search_sql(self, order_by: Optional[LiteralString], where: Optional[LiteralString]): ...
