# label: safe
# family: shell
# sink-line: 15
# why: Each branch appends a different literal script; the flag only chooses between literals.
import subprocess
import sys


def listing(verbose: bool) -> str:
    args = ["sh", "-c"]
    if verbose:
        args.append("ls -la /srv")
    else:
        args.append("ls /srv")
    return subprocess.run(args, capture_output=True, text=True).stdout


if __name__ == "__main__":
    print(listing("-v" in sys.argv))
