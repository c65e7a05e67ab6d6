# label: vulnerable
# family: shell
# sink-line: 17
# why: One branch includes the user-supplied level string verbatim, so a value like '9; id' reaches the shell command.
import subprocess
import sys


def backup(path: str, level: str) -> int:
    if level == "fast":
        opts = "-1"
    elif level == "best":
        opts = "-9"
    else:
        opts = "-" + level
    cmd = "tar cf - " + path + " | gzip " + opts + " > /backups/latest.tar.gz"
    proc = subprocess.Popen(cmd, shell=True)
    return proc.wait()


if __name__ == "__main__":
    sys.exit(backup("/srv/data", sys.argv[1] if len(sys.argv) > 1 else "fast"))
