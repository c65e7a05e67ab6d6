# label: vulnerable
# family: sql
# sink-line: 24
# why: Names read from an uploaded CSV file are formatted into INSERT statements run through executescript, so a crafted cell can append arbitrary statements.
import csv
import sqlite3
import sys


def build_script(csv_path: str) -> str:
    statements = ["BEGIN;"]
    with open(csv_path, newline="") as fh:
        for row in csv.DictReader(fh):
            statements.append(
                "INSERT INTO employees (name, team) VALUES ('%s', '%s');" % (row["name"], row["team"])
            )
    statements.append("COMMIT;")
    return "\n".join(statements)


def main() -> None:
    db_path, csv_path = sys.argv[1], sys.argv[2]
    conn = sqlite3.connect(db_path)
    conn.executescript(build_script(csv_path))
    print("import finished")


if __name__ == "__main__":
    main()
