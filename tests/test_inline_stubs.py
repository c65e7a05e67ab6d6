"""Stubs made from inline-typed packages (inline_stubs.py): what they keep of the package."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from scripts import inline_stub_fidelity
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.inline_stubs import stub_text

MODULE = '''\
"""A module."""
from __future__ import annotations

import typing as t


class Reader(Base):
    declared: int

    def __init__(self, path: str, size, flag=True) -> None:
        """Open it."""
        self.path = path
        self.size = size
        self.declared = 3
        self.active = True
        self.items: list[int] = []

    @property
    def name(self) -> str: return self.path

    async def lines(self) -> t.AsyncIterator[str]:
        yield self.path

    def close(self):
        self.active = False

    def fail(self):
        raise NotImplementedError

    def compute(self):
        return 1


def helper(x: int) -> int:
    @decorate
    def inner() -> int:
        return x

    return inner()
'''


def test_bodies_are_dropped_and_what_they_said_of_types_is_kept() -> None:
    stub = stub_text(MODULE)
    ast.parse(stub)  # a valid module
    for body_only in ("return", "yield", "@decorate", "Open it"):
        assert body_only not in stub
    # Instance attributes: from the parameter assigned, a literal's type, else Any; a name the
    # class body declares keeps its own declaration.
    assert "    path: str\n" in stub
    assert "    size: _typing_literalstring_Any\n" in stub
    assert "    active: bool\n" in stub
    assert "    items: list[int]\n" in stub
    assert stub.count("declared:") == 1
    assert "from __future__ import annotations\nfrom typing import Any as " in stub
    # An async generator is spelled as typeshed does, without async; a function that returns
    # nothing returns None; one that raises or returns a value says nothing.
    assert "    def lines(self) -> t.AsyncIterator[str]:" in stub
    assert "    def close(self) -> None:" in stub
    assert "    def fail(self):" in stub
    assert "    def compute(self):" in stub
    assert stub.startswith('"""A module."""')


@pytest.mark.parametrize("package", ["markupsafe", "jinja2", "flask", "aiosqlite"])
def test_pyright_reveals_the_same_types_through_the_stubs(package: str) -> None:
    """Every public name and class attribute: the same type through the stubs as from the
    installed package (SQLAlchemy differs on 43 of 1221, measured by the script and written
    in docs/third-party-overrides.md: unannotated methods whose inferred return is lost)."""
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    if package not in inline_stub_fidelity.inline_packages(Path(sys.executable)):
        pytest.skip(f"{package} is not installed with inline types (the test extras install it)")
    fidelity = inline_stub_fidelity.measure(Path(sys.executable), package)
    assert fidelity.probed > 30
    assert fidelity.differing == []


def test_the_stubs_are_what_check_uses(tmp_path: Path) -> None:
    """A package whose module holds an unannotated async generator: the cached copy check
    puts on the search path is the stub text, tightened where our specification says."""
    site = tmp_path / "site"
    package = site / "markupsafe"
    package.mkdir(parents=True)
    (package / "py.typed").write_text("", encoding="utf-8")
    (package / "__init__.py").write_text(
        "import typing as t\nclass _HasHTML(t.Protocol): ...\n"
        "class Markup(str):\n    def __new__(cls, object: t.Any = '', encoding=None):\n"
        "        return super().__new__(cls, object)\n",
        encoding="utf-8",
    )
    coverage = {c.package: c for c in thirdparty.build_from([site], "default", tmp_path / "c")}
    entry = coverage["markupsafe"].root
    assert entry is not None
    text = (entry / "markupsafe" / "__init__.pyi").read_text(encoding="utf-8")
    assert (
        "def __new__(cls, object: LiteralString | _TypingLiteralStringHasHTML = '', "
        "encoding=None):" in text
    )
    assert "super()" not in text
    assert (entry / "markupsafe-stubs" / "__init__.pyi").read_text(encoding="utf-8") == text
