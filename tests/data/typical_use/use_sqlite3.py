import sqlite3


def run(user: str) -> None:
    conn = sqlite3.connect(":memory:")
    rows = conn.execute("SELECT * FROM t WHERE a = ?", (user,)).fetchall()
    print(rows[0], conn.total_changes)
    conn.row_factory = sqlite3.Row
    conn.commitx()  # error
    conn.execute(f"SELECT * FROM t WHERE a = '{user}'")  # sink
