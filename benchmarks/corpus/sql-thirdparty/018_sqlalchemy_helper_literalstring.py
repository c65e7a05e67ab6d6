# label: safe
# family: sql-thirdparty
# sink-line: 19
# why: The WHERE clause comes from a helper annotated -> LiteralString that returns one of two literals; the owner id is a bound parameter.
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from typing_extensions import LiteralString


def archive_filter(include_archived: bool) -> LiteralString:
    if include_archived:
        return "owner_id = :owner"
    return "owner_id = :owner AND archived = false"


def list_projects(engine: Engine, owner_id: int, include_archived: bool) -> list[str]:
    query = "SELECT name FROM projects WHERE " + archive_filter(include_archived) + " ORDER BY name"
    with engine.connect() as conn:
        return [str(r[0]) for r in conn.execute(text(query), {"owner": owner_id})]


if __name__ == "__main__":
    print(list_projects(create_engine("sqlite:///pm.db"), 1, include_archived=False))
