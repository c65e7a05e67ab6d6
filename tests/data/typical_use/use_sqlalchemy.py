from sqlalchemy import Column, Integer, String, create_engine, select, text
from sqlalchemy.orm import DeclarativeBase, Session


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id = Column(Integer, primary_key=True)
    name = Column(String)


def run(user: str) -> None:
    engine = create_engine("sqlite://")
    with Session(engine) as session:
        found = session.execute(select(User).where(User.name == user)).scalars().all()
        print(found[0].name)
    with engine.connect() as conn:
        conn.execute(text("SELECT * FROM users WHERE name = :n"), {"n": user})
        conn.commitx()  # error
        conn.execute(text(f"SELECT * FROM users WHERE name = '{user}'"))  # sink
