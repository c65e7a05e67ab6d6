import paramiko


def run(user: str) -> None:
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect("host", username="u")
    stdin, stdout, stderr = client.exec_command("uptime")
    print(stdout.read().decode(), stdout.channel.recv_exit_status() + 1)
    client.connectx()  # error
    client.exec_command("ls " + user)  # sink
