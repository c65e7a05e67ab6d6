# label: vulnerable
# family: shell
# sink-line: 14
# why: On Windows the list runs cmd /c with the folder interpolated into the command, so cmd.exe parses it.
import subprocess
import sys


def list_folder(folder: str) -> str:
    if sys.platform == "win32":
        args = ["cmd", "/c", f"dir {folder}"]
    else:
        args = ["ls", "-l", folder]
    return subprocess.run(args, capture_output=True, text=True).stdout


if __name__ == "__main__":
    print(list_folder(sys.argv[1]))
