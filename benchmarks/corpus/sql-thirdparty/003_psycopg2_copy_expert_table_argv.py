# label: vulnerable
# family: sql-thirdparty
# sink-line: 14
# why: The table name given on the command line is put into a COPY statement with an f-string, so '(SELECT ...)' or a second statement can be injected.
import sys

import psycopg2


def export_table(table: str, out_path: str) -> None:
    conn = psycopg2.connect(dbname="analytics", user="exporter")
    try:
        with conn.cursor() as cur, open(out_path, "w", encoding="utf-8") as out:
            cur.copy_expert(f"COPY {table} TO STDOUT WITH CSV HEADER", out)
    finally:
        conn.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: export.py TABLE OUT.csv")
    export_table(sys.argv[1], sys.argv[2])
