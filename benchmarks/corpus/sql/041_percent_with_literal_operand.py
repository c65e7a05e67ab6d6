# label: safe
# family: sql
# sink-line: 12
# why: The % operator combines a literal template with a literal column name chosen by a boolean, so nothing external reaches the SQL.
import sqlite3
import sys


def top_products(conn: sqlite3.Connection, by_revenue: bool, limit: int) -> list[tuple[str, float]]:
    metric = "SUM(price * qty)" if by_revenue else "SUM(qty)"
    sql = "SELECT product, %s AS score FROM order_lines GROUP BY product ORDER BY score DESC LIMIT ?" % metric
    return conn.execute(sql, (limit,)).fetchall()


if __name__ == "__main__":
    conn = sqlite3.connect("shop.db")
    for product, score in top_products(conn, "--revenue" in sys.argv, 10):
        print(f"{product:30} {score:>12.2f}")
