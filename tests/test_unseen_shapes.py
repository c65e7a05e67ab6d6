"""The tool's mistakes found on projects it was not tuned on (issue 44's "Done when",
benchmarks/unseen/), each in the shape it had there, generalised from its cause."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checking import check_project, marked_rules

# lektor 3.3.14's sourcesearch.find_files: a triple-quoted query formatted with one `?` per
# value, in a call spread over lines that the probed copy cannot ask about.  The checker's own
# error at it made the finding; the syntax shows the text literal whatever the input.
SPREAD_OVER_LINES = '''\
import sqlite3
from typing import List


def find(con: sqlite3.Connection, languages: List[str], alts: List[str], limit: int) -> None:
    cur = con.cursor()
    cur.execute(
        """
        select path from source_info
         where lang in (%s)
           and alt in (%s)
         limit ?
    """
        % (
            ", ".join(["?"] * len(languages)),
            ", ".join(["?"] * len(alts)),
        ),
        [*languages, *alts, limit],
    )
    cur.execute(  # LS101
        """
        select path from source_info where lang = '%s'
    """
        % languages[0],
    )
'''


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_call_spread_over_lines_is_proven_when_its_text_is_literal_in_fact(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": SPREAD_OVER_LINES}, capsys)
    assert {(f["line"], f["rule"]) for f in document["findings"]} == marked_rules(SPREAD_OVER_LINES)
    assert document["sink_calls"]["proven"] == 1
