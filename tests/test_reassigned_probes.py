"""A sink call in the value of an assignment to a name it reads (`rv = Markup(rv)`, jinja2
3.1.3's `xmlattr`, CVE-2024-34064) is asked about under pyright as anywhere else: pyright
1.1.414 never reveals a name bound there with `:=` while the assigned name's inferred type is
partly Unknown (it is being inferred from that very value), and the call was counted
unverified, "not evaluated"; such a call is now asked about without binding a name
(sink_looks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checking import check_project, found_rules

REASSIGNED = """\
from markupsafe import Markup


def attributes(d: dict[str, str], autoescape: bool) -> str:
    items = []
    for key in d:
        items.append(f"{key}")
    rv = " ".join(items)
    if autoescape:
        rv = Markup(rv)
    return rv
"""


@pytest.mark.parametrize(
    ("name", "rule"),
    # pyright types `items` list[Unknown], so the text is Any; mypy infers list[str].
    [("pyright", "LS902"), ("mypy", "LS402")],
)
def test_a_call_in_the_value_of_its_own_name_is_judged(
    name: str, rule: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = check_project(name, tmp_path, {"app.py": REASSIGNED}, capsys, "--show-unverified")
    assert found_rules(document) == {(10, rule)}
    assert document["unverified"] == []
