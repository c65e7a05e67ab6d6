# label: vulnerable
# family: sql-thirdparty
# sink-line: 18
# why: The audit table name comes from the AUDIT_TABLE environment variable, is kept as an instance attribute and is spliced into the INSERT text.
import os

import MySQLdb
import MySQLdb.cursors


class AuditLog:
    def __init__(self, conn: MySQLdb.Connection) -> None:
        self.conn = conn
        self.table = os.environ.get("AUDIT_TABLE", "audit_log")

    def record(self, actor: str, action: str) -> None:
        cur: MySQLdb.cursors.Cursor = self.conn.cursor()
        cur.execute(f"INSERT INTO {self.table} (actor, action) VALUES (%s, %s)", (actor, action))
        self.conn.commit()


if __name__ == "__main__":
    log = AuditLog(MySQLdb.connect(host="localhost", user="audit", db="ops"))
    log.record("admin", "rotate-keys")
