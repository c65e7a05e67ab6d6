from typing_extensions import LiteralString

class BaseEventLoop:
    async def subprocess_shell(self, protocol_factory, cmd: LiteralString): ...
