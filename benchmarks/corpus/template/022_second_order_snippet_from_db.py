# label: vulnerable
# family: template
# sink-line: 18
# why: A user-authored profile snippet stored in the database is read back and compiled as Jinja source, so a saved '{{ ... }}' payload executes.
import sqlite3

from jinja2 import Environment

env = Environment(autoescape=True)


def render_profile(conn: sqlite3.Connection, user_id: int) -> str:
    row = conn.execute("SELECT display_name, snippet FROM profiles WHERE id = ?", (user_id,)).fetchone()
    if row is None:
        return ""
    display_name: str = str(row[0])
    snippet: str = str(row[1])
    template = env.from_string(snippet)
    return template.render(display_name=display_name)


if __name__ == "__main__":
    db = sqlite3.connect("profiles.db")
    print(render_profile(db, 1))
