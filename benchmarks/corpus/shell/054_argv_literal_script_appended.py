# label: safe
# family: shell
# sink-line: 11
# why: The script appended to the bash -c list is a literal pipeline; nothing from outside reaches the shell.
import subprocess


def disk_report() -> str:
    args = ["bash", "-c"]
    args.append("df -h | sort -k5 -r | head -5")
    return subprocess.run(args, capture_output=True, text=True).stdout


if __name__ == "__main__":
    print(disk_report())
