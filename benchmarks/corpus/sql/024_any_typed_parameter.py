# label: vulnerable
# family: sql
# sink-line: 11
# why: The Any-typed filter value originates from a webhook payload and is concatenated into the UPDATE statement.
import json
import sqlite3
from typing import Any


def mark_delivered(conn: sqlite3.Connection, tracking_id: Any) -> None:
    conn.execute("UPDATE shipments SET status = 'delivered' WHERE tracking = '" + tracking_id + "'")
    conn.commit()


def handle_webhook(conn: sqlite3.Connection, raw_body: bytes) -> None:
    event: dict[str, Any] = json.loads(raw_body)
    if event.get("type") == "delivered":
        mark_delivered(conn, event["data"]["tracking_id"])
