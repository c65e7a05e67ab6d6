"""typing_literalstring.sql and .shell against injection payloads, with the real thing: an
in-memory sqlite3 database and `sh -c`.  (tests/data/runtime_probe.py runs a few of the same on
every CPython the machine has; test_cases/check_safe_helpers.py holds the types.)"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from typing_literalstring.shell import join, quote
from typing_literalstring.sql import identifier, pick, placeholders

PAYLOADS = [
    'x"; DROP TABLE victims; --',
    "x'; DROP TABLE victims; --",
    'a""b',
    '"',
    "'",
    "name] ; --",
    "with space",
    "new\nline",
    "back\\slash",
    "$(touch pwned)",
    "`touch pwned`",
    "; touch pwned",
    "| touch pwned",
    "&& touch pwned",
    "*",
    "-n",
    "ünïcödé ✓",
    "%s ? :name",
]


@pytest.fixture
def conn() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE victims (id INTEGER)")
    return db


def _tables(db: sqlite3.Connection) -> set[str]:
    return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


@pytest.mark.parametrize("payload", PAYLOADS)
def test_identifier_makes_any_name_one_identifier(conn: sqlite3.Connection, payload: str) -> None:
    conn.execute(f"CREATE TABLE {identifier(payload)} ({identifier(payload)} TEXT)")
    conn.execute(f"INSERT INTO {identifier(payload)} VALUES (?)", (payload,))
    assert _tables(conn) == {"victims", payload}
    columns = [row[1] for row in conn.execute(f"PRAGMA table_info({identifier(payload)})")]
    assert columns == [payload]
    rows = conn.execute(f"SELECT {identifier(payload)} FROM {identifier(payload)}").fetchall()
    assert rows == [(payload,)]


@pytest.mark.parametrize("name", ["", "nul\x00byte"])
def test_identifier_refuses_what_sqlite_would_cut_short(name: str) -> None:
    with pytest.raises(ValueError, match="not a valid SQL identifier"):
        identifier(name)


def test_identifier_refuses_a_non_string() -> None:
    with pytest.raises(TypeError, match="must be a str"):
        identifier(3)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_pick_lets_only_the_allowed_literals_through(
    conn: sqlite3.Connection, payload: str
) -> None:
    with pytest.raises(ValueError, match="is not one of 'id', 'name'"):
        pick(payload, ("id", "name"))
    assert _tables(conn) == {"victims"}


def test_pick_returns_the_literal_from_the_allow_list() -> None:
    allowed = ("id", "created")
    chosen = pick("".join(["crea", "ted"]), allowed)  # equal, but another object
    assert chosen == "created"
    assert chosen is allowed[1]
    assert pick("id", ["id"]) == "id"
    assert pick("asc", {"asc": 1, "desc": 2}) == "asc"  # a mapping's keys


@pytest.mark.parametrize("count", [1, 2, 5, 100])
def test_placeholders_match_the_values(conn: sqlite3.Connection, count: int) -> None:
    conn.executemany("INSERT INTO victims VALUES (?)", [(i,) for i in range(200)])
    values = list(range(count))
    query = f"SELECT count(*) FROM victims WHERE id IN ({placeholders(len(values))})"
    assert conn.execute(query, values).fetchone() == (count,)
    assert placeholders(count, "%s") == ", ".join(["%s"] * count)


@pytest.mark.parametrize(
    ("count", "error"),
    [(0, ValueError), (-1, ValueError), (True, TypeError), ("3", TypeError), (2.0, TypeError)],
)
def test_placeholders_refuse_a_count_that_is_not_a_positive_int(
    count: object, error: type[Exception]
) -> None:
    with pytest.raises(error):
        placeholders(count)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


needs_sh = pytest.mark.skipif(shutil.which("sh") is None, reason="no POSIX sh on this machine")


@needs_sh
@pytest.mark.parametrize("payload", [*PAYLOADS, ""])
def test_quote_makes_any_value_one_shell_word(payload: str, tmp_path: Path) -> None:
    proc = subprocess.run(
        f"printf '%s' {quote(payload)}",
        shell=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert proc.stdout == payload
    assert list(tmp_path.iterdir()) == []  # nothing touched


@needs_sh
def test_join_gives_the_shell_exactly_the_words(tmp_path: Path) -> None:
    words = [p for p in PAYLOADS if "\n" not in p]
    proc = subprocess.run(
        "printf '%s\\n' " + join(words),
        shell=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert proc.stdout.splitlines() == words
    assert list(tmp_path.iterdir()) == []
    assert join([]) == ""


def test_quote_refuses_a_non_string() -> None:
    with pytest.raises(TypeError, match="must be a str"):
        quote(b"bytes")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
