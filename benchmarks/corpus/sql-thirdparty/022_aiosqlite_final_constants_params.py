# label: safe
# family: sql-thirdparty
# sink-line: 16
# why: The query is an f-string of Final literal constants, and the event kind from the request is passed as a '?' parameter.
import asyncio
from typing import Any, Final

import aiosqlite

EVENTS_TABLE: Final = "events"
EVENT_COLUMNS: Final = "id, kind, payload, created_at"


async def events_of_kind(db_path: str, kind: str, limit: int) -> list[Any]:
    async with aiosqlite.connect(db_path) as db:
        cursor = await db.execute(f"SELECT {EVENT_COLUMNS} FROM {EVENTS_TABLE} WHERE kind = ? ORDER BY created_at DESC LIMIT ?", (kind, limit))
        return list(await cursor.fetchall())


if __name__ == "__main__":
    print(asyncio.run(events_of_kind("events.db", "signup", 20)))
