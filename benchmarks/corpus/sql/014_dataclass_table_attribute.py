# label: vulnerable
# family: sql
# sink-line: 21
# why: The export table name stored on the dataclass comes from the command line and is interpolated into the SELECT.
import csv
import sqlite3
import sys
from dataclasses import dataclass


@dataclass
class ExportJob:
    database: str
    table: str
    output: str


def run(job: ExportJob) -> int:
    conn = sqlite3.connect(job.database)
    cur = conn.cursor()
    cur.execute(f"SELECT * FROM {job.table}")
    rows = cur.fetchall()
    with open(job.output, "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    return len(rows)


if __name__ == "__main__":
    job = ExportJob(database=sys.argv[1], table=sys.argv[2], output=sys.argv[3])
    print(f"exported {run(job)} rows")
