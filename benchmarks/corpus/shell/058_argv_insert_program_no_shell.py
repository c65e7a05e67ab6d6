# label: safe
# family: shell
# sink-line: 12
# why: The program inserted in front is wc, not a shell, so the path stays one argument.
import subprocess
import sys


def count_lines(path: str) -> str:
    argv = ["-l", "--", path]
    argv.insert(0, "wc")
    return subprocess.run(argv, capture_output=True, text=True).stdout


if __name__ == "__main__":
    print(count_lines(sys.argv[1]))
