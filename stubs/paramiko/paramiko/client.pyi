# paramiko (base: types-paramiko's paramiko-stubs): exec_command runs its command through the
# remote user's shell, so a non-literal one is shell injection on the remote host.  Keep the
# command literal and pass data on the channel's stdin (shlex.quote returns a plain str).
from typing_extensions import LiteralString

class SSHClient:
    def exec_command(self, command: LiteralString): ...
