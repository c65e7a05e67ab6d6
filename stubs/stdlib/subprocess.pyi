# subprocess: with shell=True the command is a shell script, so it must be a literal; pass user
# data as separate list items without shell=True instead. Without the shell, nothing changes.
from collections.abc import Sequence

from typing_extensions import LiteralString

from typing_literalstring.stubspec import when_shell

@when_shell
def run(args: LiteralString | Sequence[LiteralString]): ...
@when_shell
def call(args: LiteralString | Sequence[LiteralString]): ...
@when_shell
def check_call(args: LiteralString | Sequence[LiteralString]): ...
@when_shell
def check_output(args: LiteralString | Sequence[LiteralString]): ...

class Popen:
    @when_shell
    def __init__(self, args: LiteralString | Sequence[LiteralString]): ...

# These two always run their command through the shell.
def getoutput(cmd: LiteralString | Sequence[LiteralString]): ...
def getstatusoutput(cmd: LiteralString | Sequence[LiteralString]): ...
