"""The verdict is proven exactly when the text is literal: a property over generated sink calls.

Each generated text mixes literals (string constants, a ``LiteralString`` parameter), a ``str``
parameter and an ``Any`` parameter in f-strings, ``+``, ``%``, ``format`` and ``join``; what it
is follows from its leaves (PEP 675's inference): literal when every leaf is literal, a finding
when a leaf is a plain ``str`` and none is ``Any``, and unjudged (LS902, never proven) when a leaf
is ``Any``.  Many texts go into one file, so that one check answers for them all.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands.cli import main

LITERAL, ANY, TEXT = 0, 1, 2  # what a text is: a plain str part makes a finding, Any or not


@dataclass(frozen=True)
class Text:
    code: str
    kind: int  # LITERAL, TEXT or ANY


_CONSTANTS = st.sampled_from(
    ["SELECT 1", "a'b", 'x" is "y', "{}", "%s", "", "Literal['z']", "LiteralString"]
)
_NAMES = st.sampled_from([Text("lit", LITERAL), Text("user", TEXT), Text("loose", ANY)])
_LEAVES = st.one_of(_CONSTANTS.map(lambda c: Text(repr(c), LITERAL)), _NAMES)


def _plus(a: Text, b: Text) -> Text:
    return Text(f"({a.code} + {b.code})", max(a.kind, b.kind))


def _fstring(a: Text, b: Text) -> Text:
    return Text(f'f"<{{{a.code}}}|{{{b.code}}}>"', max(a.kind, b.kind))


def _percent(a: Text, b: Text) -> Text:
    return Text(f"('%s-%s' % ({a.code}, {b.code}))", max(a.kind, b.kind))


def _format(a: Text, b: Text) -> Text:
    return Text(f"'{{}}:{{}}'.format({a.code}, {b.code})", max(a.kind, b.kind))


def _join(a: Text, b: Text) -> Text:
    return Text(f"', '.join([{a.code}, {b.code}])", max(a.kind, b.kind))


def _combine(children: st.SearchStrategy[Text]) -> st.SearchStrategy[Text]:
    return st.one_of(
        st.builds(_plus, children, children),
        # Of names only: a quote of a child inside the f-string's own is Python 3.12 grammar.
        st.builds(_fstring, _NAMES, _NAMES),
        st.builds(_percent, children, children),
        st.builds(_format, children, children),
        st.builds(_join, children, children),
    )


_TEXTS = st.recursive(_LEAVES, _combine, max_leaves=4)

# Five lines, then four per text: the call of text ``n`` is on line 5 + 4n + 4.
_HEADER = [
    "import sqlite3",
    "from typing import Any",
    "",
    "from typing_extensions import LiteralString",
    "",
]


def _program(texts: list[Text]) -> str:
    lines = list(_HEADER)
    for number, text in enumerate(texts):
        lines += [
            "",
            "",
            f"def f{number}(conn: sqlite3.Connection, lit: LiteralString, user: str, loose: Any)"
            " -> None:",
            f"    conn.execute({text.code})",
        ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_proven_exactly_when_literal(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    checker = CHECKERS["mypy+plugin" if name == "mypy" else name]
    if not checker.is_installed():
        pytest.skip(f"{checker.name} is not installed")
    cache = tmp_path_factory.mktemp("cache")

    # No shrinking: each example is a checker run; a failure prints the whole program.
    @settings(
        max_examples=4,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.lists(_TEXTS, min_size=12, max_size=12))
    def verdicts(texts: list[Text]) -> None:
        folder = tmp_path_factory.mktemp("generated")
        (folder / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n')
        (folder / "app.py").write_text(_program(texts), encoding="utf-8")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(
                ["check", "--checker", name, "--format", "json", "--show-unverified",
                 "--cache-dir", str(cache), str(folder / "app.py")]
            )  # fmt: skip
        document = json.loads(out.getvalue())
        assert not document["unparsable"], document["unparsable"]
        findings = {f["line"]: f["rule"] for f in document["findings"]}
        unverified = {u["line"]: u["reason"] for u in document.get("unverified", [])}
        for number, text in enumerate(texts):
            line = 5 + 4 * number + 4
            got = findings.get(line) or unverified.get(line) or "proven"
            # Any: LS902 where the text is built in view, else unverified (its text is Any).
            any_outcome = "value-any" if text.code == "loose" else "LS902"
            expected = {LITERAL: "proven", TEXT: "LS101", ANY: any_outcome}[text.kind]
            assert got == expected, (text.code, got, _program(texts))
        assert document["sink_calls"]["proven"] == sum(t.kind == LITERAL for t in texts)

    verdicts()


def test_the_program_lines_are_where_the_test_looks() -> None:
    program = _program([Text("'a'", LITERAL), Text("user", TEXT)]).splitlines()
    assert program[8] == "    conn.execute('a')"
    assert program[12] == "    conn.execute(user)"
