# label: safe
# family: sql
# sink-line: 22
# why: The script is a join of a tuple of literal statements, which PEP 675 treats as a literal string.
import sqlite3
import sys

MAINTENANCE_STEPS = (
    "DELETE FROM sessions WHERE expires_at < CURRENT_TIMESTAMP;",
    "DELETE FROM password_resets WHERE used = 1;",
    "ANALYZE;",
    "VACUUM;",
)


def nightly_maintenance(db_path: str, dry_run: bool) -> None:
    script = "\n".join(MAINTENANCE_STEPS)
    if dry_run:
        print(script)
        return
    conn = sqlite3.connect(db_path)
    conn.executescript(script)
    conn.close()


if __name__ == "__main__":
    nightly_maintenance(sys.argv[1], "--dry-run" in sys.argv)
