# label: safe
# family: shell
# sink-line: 15
# why: The command grows only by appending literal option strings inside the loop, so the shell=True command is entirely literal.
import subprocess
import sys


def run_linters(strict: bool, fix: bool) -> int:
    cmd = "python -m flake8 src"
    for enabled, option in ((strict, " --max-complexity=10"), (fix, " --show-source")):
        if enabled:
            cmd += option
    cmd += " && echo lint-ok"
    return subprocess.run(cmd, shell=True).returncode


if __name__ == "__main__":
    sys.exit(run_linters("--strict" in sys.argv, "--fix" in sys.argv))
