"""The tightened copy of an inline-typed package (source_copy.py): its own modules, untouched but
for the specified signatures, so what a checker infers from a body stays."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from scripts import inline_stub_fidelity
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.specs import thirdparty
from typing_literalstring.specs.stubspec import parse_spec
from typing_literalstring.specs.tighten import tighten_module

# asyncpg's shape (issue 44): `transaction()` has no return annotation; pyright infers it from
# the body.  A stub without the body made it Unknown, and a variable declared
# `Transaction | None` kept its None after `self.tr = conn.transaction()`.
MODULE = '''\
"""A module."""
from __future__ import annotations

from typing import Optional


class Transaction:
    async def start(self) -> None: ...


class Connection:
    def transaction(self):
        return Transaction()

    async def fetch(self, query: str, *args):
        return [query]


async def connect(dsn=None, **kwargs):
    return Connection()
'''
SPEC = """\
from typing import Any, Optional, overload

from typing_extensions import LiteralString

from typing_literalstring.stubspec import replaced

class Connection:
    async def fetch(self, query: LiteralString): ...

@replaced
@overload
async def connect(dsn: None = None, **kwargs: Any) -> Connection: ...
@replaced
@overload
async def connect(dsn: str, **kwargs: Any) -> Connection: ...
"""
USER = """\
from typing import Optional

from lib.connection import Connection, Transaction, connect


class Repo:
    def __init__(self) -> None:
        self.tr: Optional[Transaction] = None

    async def begin(self, conn: Connection, user: str) -> None:
        self.tr = conn.transaction()
        await self.tr.start()
        await (await connect("x")).fetch("SELECT 1")
        await conn.fetch("SELECT " + user)
"""


def _tightened(tmp_path: Path) -> str:
    spec_file = tmp_path / "spec.pyi"
    spec_file.write_text(SPEC, encoding="utf-8")
    spec = parse_spec(spec_file, "lib/connection.pyi")
    return tighten_module(MODULE, spec, "default", module=True)


def test_a_module_keeps_its_bodies_and_written_definitions_stand_under_type_checking(
    tmp_path: Path,
) -> None:
    text = _tightened(tmp_path)
    assert "        return Transaction()\n" in text  # the body pyright infers from
    assert "async def fetch(self, query: LiteralString, *args):" in text
    # The replaced overloads, an implementation for them, and the original as `else`.
    assert "if TYPE_CHECKING:\n    @overload\n    async def connect(dsn: None = None" in text
    assert (
        "    async def connect(*args: _TypingLiteralStringAny, **kwargs: "
        "_TypingLiteralStringAny) -> _TypingLiteralStringAny: ...\n"
        "else:\n    async def connect(dsn=None, **kwargs):\n        return Connection()\n"
    ) in text
    assert "from typing import TYPE_CHECKING\n" in text
    assert text.startswith('"""A module."""\nfrom __future__ import annotations\n')


@pytest.mark.parametrize("name", ["pyright", "mypy", "basedpyright", "zuban", "ty", "pyrefly"])
def test_each_checker_reads_the_tightened_module_as_it_reads_the_package(
    name: str, tmp_path: Path
) -> None:
    """The copy draws no error of its own in any checker, the inferred return type is kept
    (no "start" of None), and only the sink call is refused (mypy enforces nothing: its
    equality of errors is what is shown)."""
    checker = CHECKERS[name]
    if not checker.is_installed():
        pytest.skip(f"{name} is not installed")
    project = tmp_path / "project"
    (project / "lib").mkdir(parents=True)
    (project / "lib" / "__init__.py").write_text("", encoding="utf-8")
    (project / "lib" / "connection.py").write_text(_tightened(tmp_path), encoding="utf-8")
    (project / "user.py").write_text(USER, encoding="utf-8")
    files = [project / "lib" / "connection.py", project / "user.py"]
    result = checker.run(
        files, python_version="3.12", workdir=tmp_path / "work", extra_paths=[project]
    )
    errors = sorted(
        (Path(d.path).name, d.line) for d in result.diagnostics if d.severity == "error"
    )
    assert errors == ([] if name == "mypy" else [("user.py", 14)]), result.diagnostics


@pytest.mark.parametrize("package", ["markupsafe", "jinja2", "flask", "aiosqlite"])
def test_pyright_reveals_the_same_types_through_the_copy(package: str) -> None:
    """Every public name and class attribute: the same type through the copy as from the
    installed package (the stubs made before lost 43 of SQLAlchemy's 1221: unannotated
    methods whose inferred return was lost)."""
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    if package not in inline_stub_fidelity.inline_packages(Path(sys.executable)):
        pytest.skip(f"{package} is not installed with inline types (the test extras install it)")
    fidelity = inline_stub_fidelity.measure(Path(sys.executable), package)
    assert fidelity.probed > 30
    assert fidelity.differing == []


def test_the_copy_is_what_check_uses(tmp_path: Path) -> None:
    """The cached copy check puts on the search path is the package's module with the
    specified parameter tightened, its bodies kept, under the package's name only (no
    installed `-stubs` folder competes with an inline-typed package)."""
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
    text = (entry / "markupsafe" / "__init__.py").read_text(encoding="utf-8")
    assert (
        "def __new__(cls, object: LiteralString | _TypingLiteralStringHasHTML = '', "
        "encoding=None):" in text
    )
    assert "        return super().__new__(cls, object)\n" in text
    assert (entry / "markupsafe" / "py.typed").is_file()
    assert not (entry / "markupsafe-stubs").exists()
