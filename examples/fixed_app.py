"""vulnerable_app.py with every injection bug fixed, the way PEP 675 steers you.

SQL text stays literal and values go in as parameters; commands are argument lists without a
shell (or a literal shell script with values as its arguments); log messages stay literal and
values go in as logging arguments.
"""

import logging
import sqlite3
import subprocess
import sys

logger = logging.getLogger("useradmin")


def find_user(conn: sqlite3.Connection, user_id: str) -> list[tuple[str, str]]:
    query = "SELECT name, email FROM users WHERE id = ?"
    return conn.execute(query, (user_id,)).fetchall()


def rename_user(conn: sqlite3.Connection, user_id: str, name: str) -> None:
    conn.execute("UPDATE users SET name = ? WHERE id = ?", (name, user_id))


def archive_home(name: str) -> None:
    subprocess.run(["tar", "czf", f"/tmp/{name}.tgz", f"/home/{name}"], check=True)
    subprocess.run(["du", "-sh", f"/home/{name}"], check=True)


def mail_report(address: str) -> None:
    # A literal script; the address reaches it as "$1", never as shell code.
    subprocess.run(["sh", "-c", 'mail -s report "$1" < /tmp/report', "sh", address], check=True)


def audit(external: str, details: dict[str, str]) -> None:
    logger.info("Received: %s %s", external, details)


def main() -> None:
    conn = sqlite3.connect("users.db")
    user_id, name = sys.argv[1], sys.argv[2]
    email = ""
    for row in find_user(conn, user_id):
        audit(row[0], {"id": user_id})
        email = row[1]
    rename_user(conn, user_id, name)
    archive_home(name)
    mail_report(email)


if __name__ == "__main__":
    main()
