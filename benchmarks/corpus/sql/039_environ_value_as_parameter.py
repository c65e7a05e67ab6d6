# label: safe
# family: sql
# sink-line: 12
# why: The environment-supplied tenant name is passed as a bound parameter, not as part of the SQL text.
import os
import sqlite3


def tenant_config(conn: sqlite3.Connection) -> dict[str, str]:
    tenant = os.environ["TENANT_NAME"]
    cur = conn.cursor()
    cur.execute("SELECT key, value FROM tenant_config WHERE tenant = ?", [tenant])
    return {k: v for k, v in cur.fetchall()}


if __name__ == "__main__":
    conn = sqlite3.connect(os.environ.get("CONFIG_DB", "config.db"))
    for key, value in sorted(tenant_config(conn).items()):
        print(f"{key}={value}")
