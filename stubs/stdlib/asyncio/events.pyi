from typing_extensions import LiteralString

class AbstractEventLoop:
    async def subprocess_shell(self, protocol_factory, cmd: LiteralString): ...
