# label: vulnerable
# family: sql
# sink-line: 22
# why: The restore script takes the snapshot label from the job file and formats it into an executescript, allowing extra statements after a ';'.
import json
import sqlite3
import sys


def restore(db_path: str, job_file: str) -> None:
    with open(job_file) as fh:
        job = json.load(fh)
    label: str = job["snapshot"]
    script = f"""
    BEGIN;
    DELETE FROM live_items;
    INSERT INTO live_items SELECT * FROM snapshot_items WHERE label = '{label}';
    COMMIT;
    """
    conn = sqlite3.connect(db_path)
    cur = conn.cursor()
    cur.executescript(script)
    conn.close()


if __name__ == "__main__":
    restore(sys.argv[1], sys.argv[2])
