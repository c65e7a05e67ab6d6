import subprocess


def run(command):
    return subprocess.run(command, shell=True, capture_output=True)  # callers


def run_script(script):
    return subprocess.run(["sh", "-c", script], capture_output=True)  # LS903


def ping_command(host):
    return "ping -c 1 " + host


def backup_command(folder):
    return "tar czf /tmp/backup.tgz " + folder


class Process(subprocess.Popen):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("stdout", subprocess.PIPE)
        super().__init__(*args, **kwargs)

    @classmethod
    def start(cls, *args, **kwargs):
        return cls(*args, **kwargs)


def disk_usage():
    return subprocess.check_output("df -h", shell=True).decode()  # proven
