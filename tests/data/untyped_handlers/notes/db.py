import sqlite3

DATABASE = "notes.db"
TABLE = "notes"


def get_db():
    return sqlite3.connect(DATABASE)


def get_cursor():
    db = get_db()
    return db.cursor()


def table_name():
    return "notes"


def query_db(query, args=()):
    cur = get_db().execute(query, args)  # callers
    rows = cur.fetchall()
    cur.close()
    return rows


def count_rows(table):
    return get_db().execute("SELECT COUNT(*) FROM " + table).fetchone()  # callers


class Store:
    def __init__(self, path):
        self.conn = sqlite3.connect(path)

    def all(self):
        return self.conn.execute("SELECT * FROM notes").fetchall()  # proven

    def find(self, title):
        return self.conn.execute("SELECT * FROM notes WHERE title = '%s'" % title).fetchall()  # callers

    def cursor(self):
        return self.conn.cursor()


class Repository:
    def __init__(self):
        self.db = get_db()
        self.table = table_name()

    def latest(self):
        # The attribute's type is widened to str (pyright too): a finding, though only a
        # literal is ever assigned to it.
        return self.db.execute("SELECT * FROM " + self.table + " ORDER BY id DESC").fetchone()  # LS101

    def by_tag(self, tag):
        sql = "SELECT * FROM notes WHERE tag = ?"
        return self.db.execute(sql, (tag,)).fetchall()  # proven
