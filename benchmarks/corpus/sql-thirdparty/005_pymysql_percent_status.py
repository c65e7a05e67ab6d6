# label: vulnerable
# family: sql-thirdparty
# sink-line: 19
# why: The 'status' query parameter is %-formatted into the SQL string before execute, instead of being passed as PyMySQL's args, so quotes break out.
from typing import Any

import pymysql
from flask import Flask, jsonify, request
from flask.wrappers import Response

app = Flask(__name__)


@app.route("/orders")
def list_orders() -> Response:
    status = request.args.get("status", "open")
    conn = pymysql.connect(host="localhost", user="shop", password="", database="shop")
    with conn.cursor() as cur:
        cur.execute("SELECT id, total FROM orders WHERE status = '%s' ORDER BY id DESC" % status)
        rows: tuple[tuple[Any, ...], ...] = cur.fetchall()
    conn.close()
    return jsonify([list(r) for r in rows])
