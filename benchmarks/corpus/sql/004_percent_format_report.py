# label: vulnerable
# family: sql
# sink-line: 11
# why: The customer name typed on the command line is spliced into the query with the % operator, allowing a quote to break out of the string literal.
import argparse
import sqlite3


def monthly_total(conn: sqlite3.Connection, customer: str, month: str) -> float:
    sql = "SELECT SUM(amount) FROM invoices WHERE customer = '%s' AND month = '%s'" % (customer, month)
    (total,) = conn.execute(sql).fetchone()
    return float(total or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description="Invoice totals report")
    parser.add_argument("--db", default="billing.db")
    parser.add_argument("customer")
    parser.add_argument("month")
    ns = parser.parse_args()
    conn = sqlite3.connect(ns.db)
    print(f"{ns.customer} {ns.month}: {monthly_total(conn, ns.customer, ns.month):.2f}")


if __name__ == "__main__":
    main()
