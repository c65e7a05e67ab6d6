# label: vulnerable
# family: sql
# sink-line: 13
# why: In this CGI script the HTTP_X_REPORT_TABLE environment variable is copied from a client request header and concatenated into the DELETE statement.
import os
import sqlite3


def purge_old_rows(conn: sqlite3.Connection, days: int) -> int:
    # CGI exposes request headers as HTTP_* environment variables
    table = os.environ.get("HTTP_X_REPORT_TABLE", "report_rows")
    cur = conn.cursor()
    cur.execute(
        "DELETE FROM " + table + " WHERE created_at < date('now', ?)",
        (f"-{days} days",),
    )
    conn.commit()
    return cur.rowcount


if __name__ == "__main__":
    conn = sqlite3.connect("/var/lib/reports/reports.db")
    removed = purge_old_rows(conn, 30)
    print("Content-Type: text/plain\n")
    print(f"removed {removed} rows")
