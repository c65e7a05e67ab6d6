# label: vulnerable
# family: shell
# sink-line: 10
# why: The directory name supplied by the user is %-formatted into an os.popen command string executed by /bin/sh.
import os
import sys


def disk_usage(directory: str) -> str:
    with os.popen("du -sh %s 2>/dev/null" % directory) as pipe:
        return pipe.read().strip()


def main() -> None:
    print("Enter directories to measure, empty line to stop.")
    while True:
        line = sys.stdin.readline().strip()
        if not line:
            break
        print(disk_usage(line) or f"{line}: not found")


if __name__ == "__main__":
    main()
