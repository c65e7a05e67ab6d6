# mysqlclient (base: types-mysqlclient's MySQLdb-stubs): the query text is SQL, values go in
# `args`.  The base already asks executemany for a LiteralString; execute is unannotated there.
from typing_extensions import LiteralString

class BaseCursor:
    def execute(self, query: LiteralString | bytes): ...
    def mogrify(self, query: LiteralString | bytes): ...
