# label: safe
# family: shell
# sink-line: 10
# why: The shell=True command is a fixed literal pipeline with no external data in it.
import subprocess
import sys


def biggest_logs() -> list[str]:
    out = subprocess.check_output(
        "ls -S /var/log/*.log | head -n 5 | xargs -r du -h",
        shell=True,
        text=True,
    )
    return out.splitlines()


if __name__ == "__main__":
    for line in biggest_logs():
        sys.stdout.write(line + "\n")
