# paramiko (base: types-paramiko's paramiko-stubs): a channel's exec_command, as SSHClient's.
from typing_extensions import LiteralString

class Channel:
    def exec_command(self, command: LiteralString | bytes): ...
