# asyncio: the shell variants of subprocess creation take a shell script.
from typing_extensions import LiteralString

async def create_subprocess_shell(cmd: LiteralString): ...
