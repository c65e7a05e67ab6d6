from sqlite_utils import Database


def run(user: str) -> None:
    db = Database(memory=True)
    db.table("users").insert({"name": user}, pk="id")
    table = db.table("users")
    print(table.count, table.columns_dict, list(table.rows_where("name = ?", [user])))
    for row in db.query("SELECT * FROM users WHERE name = ?", [user]):
        print(row["name"])
    db.tablex("users")  # error
    db.execute(f"SELECT * FROM users WHERE name = '{user}'")  # sink
