# label: vulnerable
# family: markup
# sink-line: 14
# why: The user's saved signature is read from the database and used as format_html's format string, so HTML in it is emitted verbatim.
import sqlite3

from django.utils.html import format_html
from django.utils.safestring import SafeString


def signature_block(conn: sqlite3.Connection, user_id: int, display_name: str) -> SafeString:
    row = conn.execute("SELECT signature FROM users WHERE id = ?", (user_id,)).fetchone()
    signature: str = str(row[0]) if row else "-- {}"
    return format_html(signature, display_name)


if __name__ == "__main__":
    db = sqlite3.connect("forum.db")
    print(signature_block(db, 42, "Ada"))
