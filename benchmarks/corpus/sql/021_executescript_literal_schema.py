# label: safe
# family: sql
# sink-line: 28
# why: The migration script concatenates only literal DDL strings before calling executescript, with no external input.
import sqlite3
import sys

CREATE_USERS = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE
);
"""

CREATE_SESSIONS = """
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY,
    user_id INTEGER REFERENCES users(id)
);
"""

INDEXES = "CREATE INDEX IF NOT EXISTS idx_sessions_user ON sessions(user_id);"


def migrate(db_path: str) -> None:
    script = "BEGIN;\n" + CREATE_USERS + CREATE_SESSIONS + INDEXES + "\nCOMMIT;"
    conn = sqlite3.connect(db_path)
    conn.executescript(script)
    conn.close()


if __name__ == "__main__":
    migrate(sys.argv[1] if len(sys.argv) > 1 else "app.db")
