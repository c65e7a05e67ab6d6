# label: safe
# family: shell
# sink-line: 11
# why: extend adds -c and a literal command; the list holds only literals.
import subprocess


def uptime() -> str:
    argv = ["sh"]
    argv.extend(["-c", "uptime && who"])
    return subprocess.check_output(argv, text=True)


if __name__ == "__main__":
    print(uptime())
