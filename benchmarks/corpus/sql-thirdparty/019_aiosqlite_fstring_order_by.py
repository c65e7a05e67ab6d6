# label: vulnerable
# family: sql-thirdparty
# sink-line: 19
# why: The 'order' query parameter is interpolated into the ORDER BY clause with an f-string before aiosqlite executes the query.
import asyncio
from typing import Any

import aiosqlite


class Request:
    def __init__(self, query: dict[str, str]) -> None:
        self.query = query


async def list_events(db_path: str, request: Request) -> list[Any]:
    order = request.query.get("order", "starts_at")
    async with aiosqlite.connect(db_path) as db:
        cursor = await db.execute(f"SELECT id, title, starts_at FROM events ORDER BY {order}")
        rows = await cursor.fetchall()
    return list(rows)


if __name__ == "__main__":
    print(asyncio.run(list_events("events.db", Request({"order": "title"}))))
