# label: safe
# family: shell
# sink-line: 14
# why: The CLI arguments are forwarded as argv elements to rsync without a shell, so no shell parsing happens.
import subprocess
import sys


def mirror(source: str, destination: str, dry_run: bool) -> None:
    args = ["rsync", "-a", "--delete"]
    if dry_run:
        args.append("--dry-run")
    args += ["--", source, destination]
    subprocess.check_call(args)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: mirror.py SRC DEST [--dry-run]")
    mirror(sys.argv[1], sys.argv[2], "--dry-run" in sys.argv)
