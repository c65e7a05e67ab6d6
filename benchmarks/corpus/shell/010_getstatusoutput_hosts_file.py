# label: vulnerable
# family: shell
# sink-line: 10
# why: Hostnames read line by line from an inventory file are placed into a shell command run via getstatusoutput.
import subprocess
import sys


def check_ssh(host: str) -> bool:
    status, _ = subprocess.getstatusoutput(
        "ssh -o BatchMode=yes -o ConnectTimeout=5 " + host + " true"
    )
    return status == 0


def main(inventory_path: str) -> None:
    with open(inventory_path) as fh:
        hosts = [line.strip() for line in fh if line.strip() and not line.startswith("#")]
    for host in hosts:
        print(f"{host:40} {'ok' if check_ssh(host) else 'UNREACHABLE'}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "inventory.txt")
