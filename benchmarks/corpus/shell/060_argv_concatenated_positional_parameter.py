# label: safe
# family: shell
# sink-line: 11
# why: The user's pattern is concatenated after a literal script as $1, so the shell never parses it as code.
import subprocess
import sys


def count_matches(pattern: str) -> str:
    args = ["sh", "-c", 'grep -c -- "$1" /var/log/app.log', "sh"] + [pattern]
    return subprocess.run(args, capture_output=True, text=True).stdout


if __name__ == "__main__":
    print(count_matches(sys.argv[1]))
