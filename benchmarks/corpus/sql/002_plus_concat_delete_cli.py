# label: vulnerable
# family: sql
# sink-line: 13
# why: The record id from sys.argv is concatenated into a DELETE statement, so '1 OR 1=1' deletes every row.
import sqlite3
import sys


def delete_record(db_path: str, record_id: str) -> int:
    conn = sqlite3.connect(db_path)
    with conn:
        cur = conn.cursor()
        cur.execute("DELETE FROM records WHERE id = " + record_id)
        return cur.rowcount


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: purge.py DB RECORD_ID", file=sys.stderr)
        return 2
    removed = delete_record(argv[1], argv[2])
    print(f"removed {removed} row(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
