# label: safe
# family: sql-thirdparty
# sink-line: 16
# why: The INSERT text is a literal with %s placeholders; every value read from the CSV file is passed as a parameter to executemany.
import csv
import sys

import psycopg2


def import_products(csv_path: str) -> int:
    with open(csv_path, newline="", encoding="utf-8") as fh:
        rows = [(r["sku"], r["name"], r["price"]) for r in csv.DictReader(fh)]
    conn = psycopg2.connect(dbname="shop", user="importer")
    with conn, conn.cursor() as cur:
        cur.executemany("INSERT INTO products (sku, name, price) VALUES (%s, %s, %s)", rows)
    conn.close()
    return len(rows)


if __name__ == "__main__":
    print(import_products(sys.argv[1]), "products imported")
