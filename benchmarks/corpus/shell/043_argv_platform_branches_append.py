# label: vulnerable
# family: shell
# sink-line: 18
# why: The list starts cmd /c or sh -c depending on the platform, and the user's name is appended as the script, so the shell parses it.
import os
import subprocess
import sys


def greet(name: str) -> None:
    args: list[str] = []
    if os.name == "nt":
        args += ["cmd.exe", "/c"]
    else:
        args.append("sh")
        args.append("-c")
    args.append(f"echo Hello {name}")
    subprocess.run(args, check=True)


if __name__ == "__main__":
    greet(sys.argv[1])
