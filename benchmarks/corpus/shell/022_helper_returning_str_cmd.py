# label: vulnerable
# family: shell
# sink-line: 15
# why: The helper returns a str that embeds the caller-provided database name, and the result is run with shell=True.
import subprocess
import sys


def dump_command(database: str, out_dir: str) -> str:
    return f"pg_dump --format=custom {database} > {out_dir}/{database}.dump"


def backup_all(databases: list[str], out_dir: str) -> None:
    for db in databases:
        subprocess.check_call(dump_command(db, out_dir), shell=True)
        print(f"dumped {db}")


if __name__ == "__main__":
    backup_all(sys.argv[2:], sys.argv[1])
