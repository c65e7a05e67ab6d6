# label: vulnerable
# family: shell
# sink-line: 12
# why: os.execv replaces the process with sh -c running a command that appends the user's message.
import os
import sys


def notify(message: str) -> None:
    argv = ["sh", "-c"]
    argv.append(f"logger -t app {message}")
    os.execv("/bin/sh", argv)


if __name__ == "__main__":
    notify(" ".join(sys.argv[1:]))
