# label: safe
# family: shell
# sink-line: 13
# why: The flags are chosen between literal strings based on booleans, so the shell command contains only literal text.
import subprocess
import sys


def clean_build(verbose: bool, force: bool) -> int:
    verbosity = "-v" if verbose else ""
    forcing = "-f" if force else "-i"
    cmd = "rm -r " + verbosity + " " + forcing + " build/ dist/ *.egg-info"
    return subprocess.call(cmd, shell=True)


if __name__ == "__main__":
    rc = clean_build("--verbose" in sys.argv, "--force" in sys.argv)
    sys.exit(rc)
