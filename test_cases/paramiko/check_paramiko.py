"""paramiko: exec_command runs its command through the remote user's shell, so a non-literal
command is shell injection on the remote host; keep the command literal and pass data on stdin.
Channel.exec_command also takes bytes, which cannot be checked and stay accepted.
"""

import shlex
from typing import Tuple

from paramiko import Channel, SSHClient
from paramiko.channel import ChannelFile, ChannelStderrFile, ChannelStdinFile
from typing_extensions import LiteralString, assert_type

Streams = Tuple[ChannelStdinFile, ChannelFile, ChannelStderrFile]


def accepted(
    client: SSHClient, channel: Channel, user: str, path: LiteralString, flag: bool
) -> None:
    client.exec_command("uptime")
    client.exec_command(f"ls -l {path}", timeout=10)
    client.exec_command("ls " + ("-la" if flag else "-l") + " /srv")
    stdin, stdout, stderr = client.exec_command("cat > /tmp/upload")
    stdin.write(user)
    channel.exec_command("uptime")
    channel.exec_command(f"du -sh {path}")
    channel.exec_command(b"uptime")


def rejected(client: SSHClient, channel: Channel, user: str, path: LiteralString) -> None:
    client.exec_command(user)  # E
    client.exec_command(f"ls -l {user}")  # E
    client.exec_command("ls -l " + user, timeout=10)  # E
    client.exec_command("ls -l %s" % user)  # E
    client.exec_command(path + user)  # E
    # shlex.quote returns a str, so a quoted value is refused too: pass data on stdin instead.
    client.exec_command("ls -l " + shlex.quote(user))  # E
    channel.exec_command(user)  # E
    channel.exec_command("rm -rf {}".format(user))  # E


def return_types(client: SSHClient, channel: Channel) -> None:
    assert_type(client.exec_command("uptime"), Streams)
    assert_type(channel.exec_command("uptime"), None)
    assert_type(channel.exec_command(b"uptime"), None)
