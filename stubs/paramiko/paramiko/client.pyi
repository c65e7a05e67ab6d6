# paramiko (base: types-paramiko's paramiko-stubs): exec_command runs its command through the
# remote user's shell, so a non-literal one is shell injection on the remote host.  Quote
# values with shlex.quote and keep the command text literal, or pass data on stdin.
from typing_extensions import LiteralString

class SSHClient:
    def exec_command(self, command: LiteralString): ...
