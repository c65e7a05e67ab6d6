# label: vulnerable
# family: shell
# sink-line: 13
# why: The archive path comes from sys.argv and the extraction target from an environment variable, both concatenated into a shell=True command.
import os
import subprocess
import sys


def unpack(archive: str) -> str:
    target = os.environ.get("UNPACK_DIR", "/tmp/unpacked")
    command = "mkdir -p " + target + " && unzip -o " + archive + " -d " + target
    return subprocess.check_output(command, shell=True, text=True)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(unpack(path))
