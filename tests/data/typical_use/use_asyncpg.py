from typing import Optional

import asyncpg
from asyncpg.transaction import Transaction


class Repo:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.tr: Optional[Transaction] = None

    async def run(self, user: str) -> None:
        self.tr = self.conn.transaction()
        await self.tr.start()
        async with self.conn.transaction():
            rows = await self.conn.fetch("SELECT * FROM t WHERE a = $1", user)
            print(rows)
        self.conn.transaction().startx()  # error
        await self.conn.execute(f"DELETE FROM t WHERE a = '{user}'")  # sink
