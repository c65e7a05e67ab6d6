# label: safe
# family: shell
# sink-line: 9
# why: subprocess.getoutput runs a fixed literal command with no external data.
import subprocess


def kernel_summary() -> dict[str, str]:
    raw = subprocess.getoutput("uname -srm && nproc && free -m | awk 'NR==2 {print $2}'")
    kernel, cpus, mem = (raw.splitlines() + ["", "", ""])[:3]
    return {"kernel": kernel, "cpus": cpus, "memory_mb": mem}


if __name__ == "__main__":
    for key, value in kernel_summary().items():
        print(f"{key}: {value}")
