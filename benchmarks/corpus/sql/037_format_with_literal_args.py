# label: safe
# family: sql
# sink-line: 15
# why: str.format is called on a literal template with only literal arguments, so the resulting query contains no outside data.
import sqlite3
import sys


def table_sizes(conn: sqlite3.Connection) -> dict[str, int]:
    sizes: dict[str, int] = {}
    template = "SELECT '{name}', COUNT(*) FROM {name}"
    orders = template.format(name="orders")
    customers = template.format(name="customers")
    query = orders + " UNION ALL " + customers
    for name, count in conn.execute(query).fetchall():
        sizes[name] = count
    return sizes


if __name__ == "__main__":
    print(table_sizes(sqlite3.connect(sys.argv[1])))
