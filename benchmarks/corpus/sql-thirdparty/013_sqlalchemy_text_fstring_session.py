# label: vulnerable
# family: sql-thirdparty
# sink-line: 20
# why: The search term from the query string is interpolated into text() with an f-string, so SQLAlchemy sends attacker-written SQL to the database.
from typing import Any

from flask import Flask, jsonify, request
from flask.wrappers import Response
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

app = Flask(__name__)
engine = create_engine("postgresql+psycopg2://app@localhost/catalog")


@app.route("/items/search")
def search_items() -> Response:
    term = request.args.get("q", "")
    with Session(engine) as session:
        result = session.execute(text(f"SELECT id, name FROM items WHERE name LIKE '%{term}%'"))
        rows: list[Any] = [dict(r._mapping) for r in result]
    return jsonify(rows)
