# label: vulnerable
# family: shell
# sink-line: 11
# why: The branch name from the CLI is inserted with str.format into a shell=True git command.
import argparse
import subprocess


def changelog(branch: str, since: str) -> str:
    cmd = "git log {} --since={} --pretty=format:'- %s (%an)'".format(branch, since)
    return subprocess.check_output(cmd, shell=True, text=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="changelog")
    parser.add_argument("branch")
    parser.add_argument("--since", default="2.weeks")
    args = parser.parse_args()
    print(changelog(args.branch, args.since))


if __name__ == "__main__":
    main()
