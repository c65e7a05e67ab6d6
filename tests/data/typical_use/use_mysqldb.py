import MySQLdb


def run(user: str) -> None:
    conn = MySQLdb.connect(host="x", user="u", passwd="p", db="d")
    cur = conn.cursor()
    cur.execute("SELECT * FROM t WHERE a = %s", (user,))
    print(cur.fetchall(), cur.rowcount + 1)
    conn.commitx()  # error
    cur.execute("SELECT * FROM t WHERE a = '%s'" % user)  # sink
