# label: safe
# family: sql
# sink-line: 19
# why: Each branch assigns a complete literal query, so the mode only selects which fixed statement runs.
import sqlite3
import sys


def stats(conn: sqlite3.Connection, mode: str) -> list[tuple[str, int]]:
    if mode == "daily":
        query = "SELECT date(ts), COUNT(*) FROM logins GROUP BY date(ts)"
    elif mode == "weekly":
        query = "SELECT strftime('%Y-%W', ts), COUNT(*) FROM logins GROUP BY 1"
    elif mode == "users":
        query = "SELECT user, COUNT(*) FROM logins GROUP BY user ORDER BY 2 DESC"
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    cur = conn.cursor()
    cur.execute(query)
    return cur.fetchall()


if __name__ == "__main__":
    for key, count in stats(sqlite3.connect("auth.db"), sys.argv[1]):
        print(f"{key}\t{count}")
