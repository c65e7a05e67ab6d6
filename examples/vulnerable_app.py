"""A small user-admin tool with one injection bug of each kind (see fixed_app.py for the cure).

Every line marked with a rule id lets data from the command line or the database reach code:
SQL text, a shell command, or a logging format string.  Where main() passes its data through the
functions above, the finding is at main()'s call, with the chain: one flow, one finding.
"""

import logging
import os
import sqlite3
import subprocess
import sys

logger = logging.getLogger("useradmin")


def find_user(conn: sqlite3.Connection, user_id: str) -> list[tuple[str, str]]:
    query = f"SELECT name, email FROM users WHERE id = {user_id}"  # PEP 675's example
    return conn.execute(query).fetchall()  # SQL injection: reported at main()'s call


def rename_user(conn: sqlite3.Connection, user_id: str, name: str) -> None:
    conn.execute("UPDATE users SET name = '" + name + "' WHERE id = ?", (user_id,))  # at the call


def archive_home(name: str) -> None:
    subprocess.run(f"tar czf /tmp/{name}.tgz /home/{name}", shell=True, check=True)  # at the call
    os.system("du -sh /home/" + name)  # LS201 shell injection


def mail_report(address: str) -> None:
    subprocess.run(["sh", "-c", f"mail -s report {address} < /tmp/report"], check=True)  # LS202


def audit(external: str, details: dict[str, str]) -> None:
    logger.info(f"Received: {external}", details)  # LS301 log format injection


def main() -> None:
    conn = sqlite3.connect("users.db")
    user_id, name = sys.argv[1], sys.argv[2]
    email = ""
    for row in find_user(conn, user_id):  # LS101 through find_user's query
        audit(row[0], {"id": user_id})
        email = row[1]
    rename_user(conn, user_id, name)  # LS101 through rename_user's UPDATE
    archive_home(name)  # LS201 through archive_home's shell
    mail_report(email)


if __name__ == "__main__":
    main()
