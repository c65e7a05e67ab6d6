# label: vulnerable
# family: shell
# sink-line: 12
# why: os.spawnv starts sh -c with a script built from the backup label given on the command line.
import os
import sys


def backup(label: str) -> int:
    argv = ["sh", "-c"]
    argv.append(f"tar czf /backups/{label}.tgz /srv/data")
    return os.spawnv(os.P_WAIT, "/bin/sh", argv)


if __name__ == "__main__":
    sys.exit(backup(sys.argv[1]))
