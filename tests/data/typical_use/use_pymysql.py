import pymysql


def run(user: str) -> None:
    conn = pymysql.connect(host="x", user="u", password="p", database="d")
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM t WHERE a = %s", (user,))
        print(cur.fetchall(), cur.rowcount + 1)
        cur.fetchallx()  # error
        cur.execute("SELECT * FROM t WHERE a = '%s'" % user)  # sink
    conn.commit()
