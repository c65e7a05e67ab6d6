# mysqlclient (base: types-mysqlclient's MySQLdb-stubs): Connection.cursor() has no return
# annotation there, so `db.cursor().execute(query)` is Any and our tightened execute never
# applies.  Replaced by what it returns: the default Cursor, or an instance of the class given.
from typing import TypeVar, overload

from typing_literalstring.stubspec import replaced

_TypingLiteralStringCursor = TypeVar("_TypingLiteralStringCursor", bound=cursors.BaseCursor)

class Connection:
    @replaced
    @overload
    def cursor(self, cursorclass: None = None) -> cursors.Cursor: ...
    @replaced
    @overload
    def cursor(
        self, cursorclass: type[_TypingLiteralStringCursor]
    ) -> _TypingLiteralStringCursor: ...
