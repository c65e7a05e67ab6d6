import os
import subprocess


def run(user: str) -> None:
    done = subprocess.run(["ls", user], capture_output=True, text=True, check=False)
    print(done.stdout.splitlines(), done.returncode + 1)
    print(os.path.join("a", user), os.environ.get("HOME"))
    done.stdout.decode()  # error
    subprocess.run(f"ls {user}", shell=True, check=False)  # sink
    os.system("ls " + user)  # sink
