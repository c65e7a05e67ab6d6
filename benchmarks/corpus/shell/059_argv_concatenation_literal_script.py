# label: safe
# family: shell
# sink-line: 9
# why: The concatenated list runs a literal make script; no value from outside is in it.
import subprocess


def rebuild() -> int:
    return subprocess.run(["sh", "-c"] + ["make clean && make -j4"]).returncode


if __name__ == "__main__":
    raise SystemExit(rebuild())
