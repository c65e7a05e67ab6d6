# label: vulnerable
# family: shell
# sink-line: 11
# why: The concatenated list is held in a name before the call; its script is the requested command line.
import subprocess


def run_tool(tool: str, target: str) -> int:
    script = f"{tool} --check {target}"
    args = ["sh", "-c"] + [script]
    return subprocess.call(args)


if __name__ == "__main__":
    import sys

    raise SystemExit(run_tool(sys.argv[1], sys.argv[2]))
