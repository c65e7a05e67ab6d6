# label: safe
# family: shell
# sink-line: 12
# why: The script is a literal that reads its values from $1 and $2; the user's paths are appended after it as positional parameters.
import subprocess


def archive(dest: str, src: str) -> None:
    args = ["sh", "-c", 'tar czf "$1" -C "$2" .', "sh"]
    args.append(dest)
    args.append(src)
    subprocess.run(args, check=True)


if __name__ == "__main__":
    import sys

    archive(sys.argv[1], sys.argv[2])
