# label: safe
# family: sql
# sink-line: 23
# why: All request values are passed as :name parameters in a dict, so the SQL text is a fixed literal.
import sqlite3


class Request:
    form: dict[str, str]

    def __init__(self, form: dict[str, str]) -> None:
        self.form = form


def create_ticket(conn: sqlite3.Connection, request: Request, user_id: int) -> int:
    params = {
        "title": request.form["title"],
        "body": request.form.get("body", ""),
        "priority": request.form.get("priority", "normal"),
        "owner": user_id,
    }
    cur = conn.cursor()
    cur.execute(
        "INSERT INTO tickets (title, body, priority, owner_id) "
        "VALUES (:title, :body, :priority, :owner)",
        params,
    )
    conn.commit()
    return int(cur.lastrowid or 0)
