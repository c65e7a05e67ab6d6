# label: vulnerable
# family: sql
# sink-line: 19
# why: The comma-separated tags from the request are quoted and joined into an IN list, so a tag containing a quote breaks out of the list.
import sqlite3
from typing import Any


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def posts_with_tags(conn: sqlite3.Connection, request: Request) -> list[Any]:
    tags = [t.strip() for t in request.args.get("tags", "").split(",") if t.strip()]
    if not tags:
        return []
    in_list = ", ".join(f"'{t}'" for t in tags)
    return conn.execute(
        "SELECT DISTINCT p.id, p.title FROM posts p JOIN post_tags t ON t.post_id = p.id "
        f"WHERE t.tag IN ({in_list})"
    ).fetchall()
