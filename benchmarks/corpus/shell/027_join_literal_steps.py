# label: safe
# family: shell
# sink-line: 18
# why: The shell command is a join of a tuple of literal build steps, so it contains only literal text.
import subprocess
import sys

BUILD_STEPS = (
    "python -m pip install -q -r requirements.txt",
    "python -m compileall -q src",
    "python -m unittest discover -s tests -q",
)


def build(stop_on_failure: bool) -> int:
    separator = " && " if stop_on_failure else " ; "
    script = separator.join(BUILD_STEPS)
    return subprocess.call(script, shell=True)


if __name__ == "__main__":
    sys.exit(build("--keep-going" not in sys.argv))
