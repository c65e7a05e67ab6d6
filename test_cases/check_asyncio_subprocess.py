"""asyncio: the shell variants of subprocess creation take a literal shell script."""

import asyncio
import asyncio.base_events
from typing import Tuple

from typing_extensions import LiteralString, assert_type


async def accepted(user: str, name: LiteralString) -> None:
    await asyncio.create_subprocess_shell("ls -l")
    await asyncio.create_subprocess_shell(f"ls -l {name}")
    await asyncio.create_subprocess_shell("ls", stdout=asyncio.subprocess.PIPE)
    await asyncio.create_subprocess_exec("ls", user)
    loop = asyncio.get_running_loop()
    await loop.subprocess_shell(asyncio.SubprocessProtocol, "ls -l")
    await loop.subprocess_exec(asyncio.SubprocessProtocol, "ls", user)


async def rejected(user: str, base_loop: asyncio.base_events.BaseEventLoop) -> None:
    await asyncio.create_subprocess_shell(user)  # E
    await asyncio.create_subprocess_shell(f"ls {user}")  # E
    await asyncio.create_subprocess_shell(b"ls")  # E
    loop = asyncio.get_running_loop()
    await loop.subprocess_shell(asyncio.SubprocessProtocol, user)  # E
    await loop.subprocess_shell(asyncio.SubprocessProtocol, cmd="ls " + user)  # E
    await base_loop.subprocess_shell(asyncio.SubprocessProtocol, user)  # E


async def return_types(base_loop: asyncio.base_events.BaseEventLoop) -> None:
    assert_type(await asyncio.create_subprocess_shell("ls"), asyncio.subprocess.Process)
    loop = asyncio.get_running_loop()
    assert_type(
        await loop.subprocess_shell(asyncio.SubprocessProtocol, "ls"),
        Tuple[asyncio.SubprocessTransport, asyncio.SubprocessProtocol],
    )
    assert_type(
        await base_loop.subprocess_shell(asyncio.SubprocessProtocol, "ls"),
        Tuple[asyncio.SubprocessTransport, asyncio.SubprocessProtocol],
    )
