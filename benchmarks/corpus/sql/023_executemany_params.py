# label: safe
# family: sql
# sink-line: 16
# why: Rows parsed from the input file are bound through '?' placeholders in executemany, so file content never becomes SQL text.
import json
import sqlite3
import sys


def load_measurements(db_path: str, json_path: str) -> int:
    with open(json_path) as fh:
        records = json.load(fh)
    rows = [(r["sensor"], r["ts"], float(r["value"])) for r in records]
    conn = sqlite3.connect(db_path)
    with conn:
        conn.executemany(
            "INSERT INTO measurements (sensor, ts, value) VALUES (?, ?, ?)", rows
        )
    return len(rows)


if __name__ == "__main__":
    print(f"loaded {load_measurements(sys.argv[1], sys.argv[2])} rows")
