import aiosqlite


async def run(user: str) -> None:
    async with aiosqlite.connect(":memory:") as db:
        async with db.execute("SELECT * FROM t WHERE a = ?", (user,)) as cursor:
            async for row in cursor:
                print(row[0])
        rows = await db.execute_fetchall("SELECT 1")
        print(list(rows), db.total_changes)
        await db.commitx()  # error
        await db.execute(f"SELECT * FROM t WHERE a = '{user}'")  # sink
