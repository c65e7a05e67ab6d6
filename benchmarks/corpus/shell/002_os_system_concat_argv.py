# label: vulnerable
# family: shell
# sink-line: 12
# why: The input filename from sys.argv is concatenated into an os.system command line, so shell metacharacters in it are executed.
import os
import sys


def make_thumbnail(src: str, size: int) -> int:
    base, _ = os.path.splitext(src)
    dest = base + f"_{size}.png"
    return os.system("convert " + src + " -resize " + str(size) + "x" + str(size) + " " + dest)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: thumbs.py IMAGE...", file=sys.stderr)
        return 2
    failures = sum(1 for path in argv[1:] if make_thumbnail(path, 256) != 0)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
