# label: vulnerable
# family: shell
# sink-line: 11
# why: The script is the user's steps joined with &&, added with +=, so each step is a shell command.
import subprocess


def run_steps(steps: list[str]) -> int:
    args = ["sh", "-c"]
    args += [" && ".join(steps)]
    return subprocess.run(args).returncode


if __name__ == "__main__":
    import sys

    sys.exit(run_steps(sys.argv[1:]))
