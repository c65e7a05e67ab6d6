# label: vulnerable
# family: shell
# sink-line: 16
# why: The database name from a tenant-editable JSON settings file is formatted into a shell=True backup command.
import datetime
import json
import subprocess
import sys


def nightly_backup(settings_path: str) -> int:
    with open(settings_path) as fh:
        settings = json.load(fh)
    stamp = datetime.date.today().isoformat()
    db_name = settings["database"]["name"]
    return subprocess.call(
        "mysqldump --single-transaction %s | gzip > /backups/%s-%s.sql.gz" % (db_name, db_name, stamp),
        shell=True,
    )


if __name__ == "__main__":
    sys.exit(nightly_backup(sys.argv[1]))
