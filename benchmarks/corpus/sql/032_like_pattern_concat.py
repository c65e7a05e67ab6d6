# label: vulnerable
# family: sql
# sink-line: 12
# why: The search text is concatenated inside a LIKE pattern, so a quote closes the pattern and injects SQL.
import sqlite3
import sys


def grep_notes(conn: sqlite3.Connection, needle: str) -> list[tuple[int, str]]:
    pattern = "'%" + needle + "%'"
    cur = conn.cursor()
    cur.execute("SELECT id, title FROM notes WHERE body LIKE " + pattern)
    return cur.fetchall()


if __name__ == "__main__":
    conn = sqlite3.connect("notes.db")
    needle = input("search: ") if len(sys.argv) < 2 else sys.argv[1]
    for note_id, title in grep_notes(conn, needle):
        print(note_id, title)
