# label: safe
# family: sql
# sink-line: 16
# why: The query is grown only by appending literal fragments, so no outside data enters the SQL text.
import sqlite3
import sys


def latest_events(conn: sqlite3.Connection, only_first: bool, include_deleted: bool) -> list[tuple[str, str]]:
    query = "SELECT kind, payload FROM events"
    if not include_deleted:
        query += " WHERE deleted = 0"
    query += " ORDER BY created_at DESC"
    if only_first:
        query += " LIMIT 1"
    return conn.execute(query).fetchall()


if __name__ == "__main__":
    db = sqlite3.connect(sys.argv[1] if len(sys.argv) > 1 else "events.db")
    for kind, payload in latest_events(db, "--first" in sys.argv, "--all" in sys.argv):
        print(kind, payload)
