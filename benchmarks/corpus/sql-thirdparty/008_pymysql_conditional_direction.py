# label: safe
# family: sql-thirdparty
# sink-line: 14
# why: The ORDER BY direction is chosen by if/else between two literals and the user id is bound as a parameter.
from typing import Any

import pymysql
import pymysql.cursors


def recent_logins(conn: pymysql.Connection[pymysql.cursors.Cursor], user_id: str, oldest_first: bool) -> list[Any]:
    direction = "ASC" if oldest_first else "DESC"
    with conn.cursor() as cur:
        cur.execute(f"SELECT at, ip FROM logins WHERE user_id = %s ORDER BY at {direction} LIMIT 50", (user_id,))
        return list(cur.fetchall())


if __name__ == "__main__":
    db = pymysql.connect(host="localhost", user="auth", database="auth")
    print(recent_logins(db, "17", oldest_first=False))
