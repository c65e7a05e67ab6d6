# label: vulnerable
# family: sql
# sink-line: 13
# why: Values are parameterised but the target table name comes from sys.argv and is interpolated into the INSERT text.
import sqlite3
import sys


def bulk_load(db_path: str, table: str, lines: list[str]) -> None:
    rows = [tuple(line.rstrip("\n").split("\t")) for line in lines if line.strip()]
    conn = sqlite3.connect(db_path)
    with conn:
        conn.executemany(f"INSERT INTO {table} (k, v) VALUES (?, ?)", rows)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: load.py DB TABLE < data.tsv")
    bulk_load(sys.argv[1], sys.argv[2], sys.stdin.readlines())
