# label: vulnerable
# family: sql-thirdparty
# sink-line: 17
# why: The session token from the X-Session-Token header is concatenated into a DELETE, so "' OR '1'='1" logs out every user.
import MySQLdb
import MySQLdb.cursors


class Request:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


def logout(conn: MySQLdb.Connection, request: Request) -> int:
    token = request.headers.get("X-Session-Token", "")
    cur: MySQLdb.cursors.Cursor = conn.cursor()
    cur.execute("DELETE FROM sessions WHERE token = '" + token + "'")
    conn.commit()
    return cur.rowcount


if __name__ == "__main__":
    db = MySQLdb.connect(host="localhost", user="web", db="app")
    print(logout(db, Request({"X-Session-Token": "abc123"})))
