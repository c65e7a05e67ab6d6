# label: safe
# family: shell
# sink-line: 12
# why: os.execv runs rsync directly; the user's paths are appended as separate arguments, never parsed by a shell.
import os
import sys


def sync(src: str, dst: str) -> None:
    argv = ["/usr/bin/rsync", "-a", "--"]
    argv += [src, dst]
    os.execv(argv[0], argv)


if __name__ == "__main__":
    sync(sys.argv[1], sys.argv[2])
