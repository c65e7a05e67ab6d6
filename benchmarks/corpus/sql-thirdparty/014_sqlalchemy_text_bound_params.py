# label: safe
# family: sql-thirdparty
# sink-line: 13
# why: The text() query is a literal with a :name bind parameter; the username from argv is sent separately as a bound value.
import sys

from sqlalchemy import create_engine, text


def last_login(db_url: str, username: str) -> str | None:
    engine = create_engine(db_url)
    with engine.connect() as conn:
        row = conn.execute(text("SELECT last_login FROM accounts WHERE username = :name"), {"name": username}).first()
    return None if row is None else str(row[0])


if __name__ == "__main__":
    print(last_login(sys.argv[1], sys.argv[2]))
