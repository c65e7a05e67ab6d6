# label: safe
# family: sql
# sink-line: 15
# why: The column is validated against a tuple of literal names before use, so although it is typed str it can only be one of those identifiers.
import sqlite3
import sys


VALID_COLUMNS = ("name", "email", "city")


def distinct_values(conn: sqlite3.Connection, column: str) -> list[str]:
    if column not in VALID_COLUMNS:
        raise SystemExit(f"column must be one of {', '.join(VALID_COLUMNS)}")
    rows = conn.execute(f"SELECT DISTINCT {column} FROM contacts ORDER BY 1").fetchall()
    return [r[0] for r in rows]


if __name__ == "__main__":
    conn = sqlite3.connect("contacts.db")
    for value in distinct_values(conn, sys.argv[1]):
        print(value)
