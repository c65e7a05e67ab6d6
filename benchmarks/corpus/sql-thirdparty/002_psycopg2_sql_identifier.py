# label: safe
# family: sql-thirdparty
# sink-line: 15
# why: The table name from argv is composed with psycopg2.sql.Identifier, which quotes it, and the id is passed as a bound parameter.
import sys

import psycopg2
from psycopg2 import sql


def fetch_row(table: str, row_id: int) -> tuple[object, ...] | None:
    conn = psycopg2.connect(dbname="warehouse", user="reporting")
    try:
        with conn.cursor() as cur:
            cur.execute(sql.SQL("SELECT * FROM {} WHERE id = %s").format(sql.Identifier(table)), (row_id,))
            return cur.fetchone()
    finally:
        conn.close()


if __name__ == "__main__":
    print(fetch_row(sys.argv[1], int(sys.argv[2])))
