# label: vulnerable
# family: shell
# sink-line: 12
# why: The bash -lc list gets a script built from the search pattern and the path, both from the command line.
import subprocess
import sys


def search(pattern: str, path: str) -> str:
    cmd = ["bash", "-lc"]
    cmd.append(f"grep -rn {pattern} {path} | head -20")
    return subprocess.check_output(cmd, text=True)


if __name__ == "__main__":
    print(search(sys.argv[1], sys.argv[2]))
