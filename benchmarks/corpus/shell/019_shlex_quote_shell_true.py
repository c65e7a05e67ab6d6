# label: safe
# family: shell
# sink-line: 12
# why: Every untrusted value is wrapped in shlex.quote before entering the shell=True command, so the shell treats each as one literal word.
import shlex
import subprocess
import sys


def search_logs(pattern: str, log_file: str) -> str:
    cmd = f"grep -n -e {shlex.quote(pattern)} -- {shlex.quote(log_file)} | tail -n 50"
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    return proc.stdout


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: logsearch.py PATTERN FILE")
    print(search_logs(sys.argv[1], sys.argv[2]))
