# label: safe
# family: sql-thirdparty
# sink-line: 22
# why: The query is a SQLAlchemy Core select() expression; the customer name from the request is compared as a bound parameter.
from typing import Any

from flask import Flask, jsonify, request
from flask.wrappers import Response
from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, select

app = Flask(__name__)
engine = create_engine("sqlite:///shop.db")
metadata = MetaData()
customers = Table("customers", metadata, Column("id", Integer, primary_key=True), Column("name", String(100)), Column("city", String(100)))


@app.route("/customers")
def find_customers() -> Response:
    name = request.args.get("name", "")
    stmt = select(customers.c.id, customers.c.city).where(customers.c.name == name)
    with engine.connect() as conn:
        rows: list[Any] = [list(r) for r in conn.execute(stmt)]
    return jsonify(rows)
