# label: vulnerable
# family: sql-thirdparty
# sink-line: 20
# why: A report filter that a user saved earlier is read back from the database and concatenated into a new query's WHERE clause.
import asyncio
from typing import Any

import aiosqlite


async def run_report(db_path: str, report_id: int) -> list[Any]:
    async with aiosqlite.connect(db_path) as db:
        cursor = await db.execute("SELECT owner_id, filter_expr FROM saved_reports WHERE id = ?", (report_id,))
        saved = await cursor.fetchone()
        if saved is None:
            return []
        owner_id = int(saved[0])
        filter_expr: str = str(saved[1])
        query = "SELECT id, amount, booked_at FROM payments WHERE owner_id = ? AND (" + filter_expr + ")"
        cursor = await db.execute(query, (owner_id,))
        return list(await cursor.fetchall())


if __name__ == "__main__":
    print(asyncio.run(run_report("ledger.db", 3)))
