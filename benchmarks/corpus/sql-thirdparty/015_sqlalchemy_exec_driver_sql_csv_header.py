# label: vulnerable
# family: sql-thirdparty
# sink-line: 20
# why: Column names from the uploaded CSV header are joined into the INSERT column list passed to exec_driver_sql, so a crafted header injects SQL.
import csv
import sys

from sqlalchemy import create_engine


def import_contacts(db_url: str, csv_path: str) -> int:
    with open(csv_path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        rows = [tuple(r) for r in reader]
    columns = ", ".join(header)
    placeholders = ", ".join("?" for _ in header)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO contacts (" + columns + ") VALUES (" + placeholders + ")", rows)
    return len(rows)


if __name__ == "__main__":
    print(import_contacts("sqlite:///contacts.db", sys.argv[1]))
