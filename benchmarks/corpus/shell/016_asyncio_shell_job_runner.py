# label: vulnerable
# family: shell
# sink-line: 11
# why: Commands built from queued task payloads (originating from API clients) are run with asyncio.create_subprocess_shell.
import asyncio
import json


async def convert(task: dict[str, str]) -> int:
    cmd = f"ffmpeg -y -i {task['input']} -vf scale={task['scale']} {task['output']}"
    proc = await asyncio.create_subprocess_shell(cmd)
    return await proc.wait()


async def worker(queue: asyncio.Queue[str]) -> None:
    while True:
        raw = await queue.get()
        task = json.loads(raw)
        rc = await convert(task)
        print(f"task {task.get('id')} finished with {rc}")
        queue.task_done()
