"""Safe ways to build the dynamic parts of SQL text, typed ``LiteralString``.

PEP 675 accepts a query built from literal strings only; real queries also need an ``IN`` list
of the right length, a column chosen by the user, or a table name from configuration.  Each
helper here is a sanitizer: the one documented place where a value from outside becomes part
of a ``LiteralString``, because what it returns cannot change the statement's structure.

    conn.execute(f"SELECT * FROM t WHERE id IN ({placeholders(len(ids))})", ids)
    conn.execute(f"SELECT * FROM t ORDER BY {pick(column, ('name', 'created'))}")
    conn.execute(f"CREATE TABLE {identifier(table)} (id INTEGER)")

Values still go in as query parameters; these helpers are for the text around them.
"""

from __future__ import annotations

from typing import Iterable, cast

from typing_literalstring import LiteralString

__all__ = ["identifier", "pick", "placeholders"]


def placeholders(count: int, marker: LiteralString = "?") -> LiteralString:
    """``count`` parameter markers joined by ", " (``"?, ?, ?"``), for an ``IN`` list or a
    ``VALUES`` row; pass the values themselves as the query's parameters.

    Safe because the result holds nothing but the literal ``marker`` (``"?"`` for sqlite3,
    ``"%s"`` for psycopg and PyMySQL) and separators: only the count comes from outside.
    ``count`` must be at least 1, as ``IN ()`` is a syntax error in SQLite and PostgreSQL.
    """
    if isinstance(count, bool) or not isinstance(count, int):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"count must be an int, not {type(count).__name__}")
    if count < 1:
        raise ValueError(f"count must be at least 1, not {count}: IN () is not valid SQL")
    return ", ".join((marker,) * count)  # a tuple keeps LiteralString; a list display widens it


def pick(value: str, allowed: Iterable[LiteralString]) -> LiteralString:
    """The element of ``allowed`` equal to ``value``; ``ValueError`` if there is none.

    For a column, a table or a sort direction chosen from outside: the result is the literal
    from the allow-list, not ``value``, so its type is honest and nothing else gets through.
    """
    choices = tuple(allowed)
    for choice in choices:
        if choice == value:
            return choice
    raise ValueError(f"{value!r} is not one of {', '.join(map(repr, choices))}")


def identifier(name: str) -> LiteralString:
    """``name`` as a quoted SQL identifier: in double quotes, each embedded double quote
    doubled (``'a"b'`` -> ``'"a""b"'``).

    Safe as a table or column name in SQLite and PostgreSQL, which follow the SQL standard's
    delimited identifiers: inside the quotes nothing but a doubled quote has a meaning, so no
    name can end the identifier early.  Not for MySQL or MariaDB without ``ANSI_QUOTES``, where
    double quotes delimit a string, and not for SQL Server's default ``QUOTED_IDENTIFIER OFF``.
    A quoted identifier is case-sensitive.  Empty names and names holding a NUL character
    (which SQLite would cut short and PostgreSQL rejects) raise ``ValueError``.
    """
    if not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    if not name or "\x00" in name:
        raise ValueError(f"not a valid SQL identifier: {name!r}")
    # The sanitizer: the quoting above makes any text one identifier, so it is literal to SQL.
    quoted = '"' + name.replace('"', '""') + '"'
    return cast(LiteralString, quoted)  # type: ignore[redundant-cast]  # mypy: LiteralString is str
