# label: safe
# family: shell
# sink-line: 11
# why: os.system runs a constant literal command with no interpolated values.
import os
import time


def dashboard(refresh_seconds: int, iterations: int) -> None:
    for _ in range(iterations):
        os.system("clear")
        with open("/proc/loadavg") as fh:
            load = fh.read().split()[:3]
        print("load averages:", " ".join(load))
        time.sleep(refresh_seconds)


if __name__ == "__main__":
    dashboard(2, 30)
