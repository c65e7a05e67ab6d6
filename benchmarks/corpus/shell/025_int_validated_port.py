# label: safe
# family: shell
# sink-line: 13
# why: The port is parsed with int() and range-checked, so only digits are formatted into the shell command.
import os
import sys


def free_port(raw_port: str) -> int:
    port = int(raw_port)
    if not 1 <= port <= 65535:
        raise SystemExit(f"invalid port: {port}")
    return os.system(f"fuser -k {port}/tcp")


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        rc = free_port(arg)
        print(f"port {arg}: {'freed' if rc == 0 else 'nothing listening'}")
