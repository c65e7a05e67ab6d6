# label: safe
# family: sql-thirdparty
# sink-line: 17
# why: The table name is checked against a fixed set of table names before the f-string is built, so only those names reach the SQL (a checker cannot prove this).
import asyncio
import sys

import aiosqlite

EXPORTABLE_TABLES = {"orders", "invoices", "customers"}


async def count_rows(db_path: str, table: str) -> int:
    if table not in EXPORTABLE_TABLES:
        raise ValueError(f"table {table!r} cannot be exported")
    async with aiosqlite.connect(db_path) as db:
        cursor = await db.execute(f"SELECT COUNT(*) FROM {table}")
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


if __name__ == "__main__":
    print(asyncio.run(count_rows("shop.db", sys.argv[1])))
