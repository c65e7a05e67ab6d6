# label: safe
# family: shell
# sink-line: 11
# why: The environment value is one element of an argument list run without a shell, so it is only ever a filename argument.
import os
import subprocess


def preview_report() -> int:
    report = os.environ.get("REPORT_FILE", "report.txt")
    proc = subprocess.Popen(["head", "-n", "40", "--", report])
    return proc.wait()


if __name__ == "__main__":
    raise SystemExit(preview_report())
