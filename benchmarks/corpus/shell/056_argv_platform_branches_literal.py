# label: safe
# family: shell
# sink-line: 17
# why: Both branches build a shell list whose script is the same literal; the user's value is never added.
import os
import subprocess


def ready() -> None:
    args: list[str] = []
    if os.name == "nt":
        args += ["cmd.exe", "/c"]
    else:
        args.append("sh")
        args.append("-c")
    args.append("echo ready")
    subprocess.run(args, check=True)


if __name__ == "__main__":
    ready()
