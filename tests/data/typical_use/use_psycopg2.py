import psycopg2
from psycopg2 import sql


def run(user: str, table: str) -> None:
    conn = psycopg2.connect("dbname=x")
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM t WHERE a = %s", (user,))
        print(cur.fetchone(), cur.rowcount + 1)
        cur.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(table)))
        cur.fetchonex()  # error
        cur.execute("SELECT * FROM t WHERE a = '" + user + "'")  # sink
    conn.commit()
