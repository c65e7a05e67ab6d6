# label: safe
# family: sql-thirdparty
# sink-line: 15
# why: mogrify and execute both get a literal query with the user id as a parameter, so the driver quotes the value in the logged and the executed statement.
import logging

import psycopg2
import psycopg2.extensions

log = logging.getLogger("audit")


def deactivate_user(conn: psycopg2.extensions.connection, user_id: str) -> None:
    with conn.cursor() as cur:
        statement = cur.mogrify("UPDATE users SET active = false WHERE id = %s", (user_id,))
        log.info("running %s", statement.decode())
        cur.execute("UPDATE users SET active = false WHERE id = %s", (user_id,))
    conn.commit()


if __name__ == "__main__":
    deactivate_user(psycopg2.connect(dbname="accounts"), "17")
