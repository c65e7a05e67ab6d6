# label: vulnerable
# family: sql
# sink-line: 19
# why: The unannotated helper returns the raw header value, which is then concatenated into the SQL statement.
import sqlite3


class Request:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


def client_id(request):
    return request.headers.get("X-Client-Id", "anonymous")


def record_hit(conn: sqlite3.Connection, request: Request, path: str) -> None:
    cid = client_id(request)
    conn.execute(
        "INSERT INTO hits (client, path) VALUES ('" + cid + "', ?)", (path,)
    )
    conn.commit()
