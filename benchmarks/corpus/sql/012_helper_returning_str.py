# label: vulnerable
# family: sql
# sink-line: 16
# why: The helper returns a plain str that embeds the caller's argv value, and that string is executed as SQL.
import sqlite3
import sys


def where_equals(column: str, value: str) -> str:
    return f"{column} = '{value}'"


def archive_project(conn: sqlite3.Connection, project: str) -> None:
    condition = where_equals("project", project)
    with conn:
        conn.execute("UPDATE tasks SET archived = 1 WHERE " + condition)


if __name__ == "__main__":
    archive_project(sqlite3.connect("tasks.db"), sys.argv[1])
    print("archived")
