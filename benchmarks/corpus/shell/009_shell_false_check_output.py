# label: safe
# family: shell
# sink-line: 10
# why: shell=False with an argument list means the user-chosen service name is a single argv entry to systemctl, never shell syntax.
import subprocess
import sys


def service_status(name: str) -> str:
    out = subprocess.check_output(
        ["systemctl", "show", "--property=ActiveState", "--value", "--", name],
        shell=False,
        text=True,
    )
    return out.strip()


if __name__ == "__main__":
    for svc in sys.argv[1:]:
        print(f"{svc}: {service_status(svc)}")
