# label: vulnerable
# family: sql-thirdparty
# sink-line: 17
# why: A str-returning helper builds a WHERE clause from the field and value given on the command line, and the result is wrapped in text() and executed.
import sys

from sqlalchemy import create_engine, text


def build_filter(field: str, value: str) -> str:
    return f"SELECT id, title FROM tickets WHERE {field} = '{value}'"


def find_tickets(db_url: str, field: str, value: str) -> list[tuple[int, str]]:
    engine = create_engine(db_url)
    with engine.connect() as conn:
        result = conn.execute(text(build_filter(field, value)))
        return [(int(r[0]), str(r[1])) for r in result]


if __name__ == "__main__":
    for ticket in find_tickets("sqlite:///helpdesk.db", sys.argv[1], sys.argv[2]):
        print(*ticket)
