# label: safe
# family: shell
# sink-line: 12
# why: shlex.join quotes every element of the argument list, so the user's filenames are single literal words to the shell.
import shlex
import subprocess
import sys


def word_counts(paths: list[str]) -> str:
    cmd = shlex.join(["wc", "-l", "--", *paths]) + " | sort -n"
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout


if __name__ == "__main__":
    print(word_counts(sys.argv[1:]))
