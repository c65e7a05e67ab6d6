# label: vulnerable
# family: sql-thirdparty
# sink-line: 22
# why: The 'email' query parameter is interpolated into the SQL text with an f-string before psycopg2 executes it, so a quote rewrites the WHERE clause.
from typing import Any

import psycopg2
from flask import Flask, jsonify, request
from flask.wrappers import Response

app = Flask(__name__)


def get_conn() -> "psycopg2.extensions.connection":
    return psycopg2.connect(dbname="crm", user="app", host="localhost")


@app.route("/contacts/lookup")
def lookup_contact() -> Response:
    email = request.args.get("email", "")
    with get_conn() as conn, conn.cursor() as cur:
        cur.execute(f"SELECT id, full_name, phone FROM contacts WHERE email = '{email}'")
        rows: list[tuple[Any, ...]] = cur.fetchall()
    return jsonify([list(r) for r in rows])
