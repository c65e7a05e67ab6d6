"""Telling typeshed's LiteralString contracts from its literal-preserving overloads."""

from __future__ import annotations

from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.specs.overlay import stdlib_modules
from typing_literalstring.specs.typeshed_literals import (
    literal_preserving_parameters,
    requires_literal_string,
)


@pytest.fixture(scope="module")
def typeshed() -> Path:
    mypy = CHECKERS["mypy"]
    if not mypy.is_installed():
        pytest.skip("mypy is not installed: its bundled typeshed is the one read here")
    return mypy.typeshed_dir()


@pytest.mark.parametrize(
    ("function", "requires"),
    [
        ("warnings.deprecated", True),  # every definition: message: LiteralString
        ("warnings.deprecated.__init__", True),  # as pyrefly names it
        ("os.path.join", False),  # a LiteralString overload, and one for any str
        ("posixpath.dirname", False),
        ("sys.intern", False),
        ("sqlite3.Connection.execute", False),  # the stock stub: str
        ("no_such_module.f", False),
    ],
)
def test_contracts_and_literal_preserving_overloads(
    typeshed: Path, function: str, requires: bool
) -> None:
    assert requires_literal_string(typeshed, function) is requires


def test_the_standard_library_is_listed_by_the_typeshed_folder(typeshed: Path) -> None:
    modules = stdlib_modules(typeshed)
    assert {"os", "sqlite3", "warnings", "subprocess", "builtins"} <= modules
    assert "psycopg" not in modules


def test_the_literal_preserving_parameters_by_bare_name() -> None:
    """pyright's typeshed: str's Appendix C overloads and os.path's join; mypy's drops the
    former."""
    pyright = CHECKERS["pyright"]
    if not pyright.is_installed():
        pytest.skip("pyright is not installed")
    parameters = literal_preserving_parameters(pyright.overlay_base())
    assert {"a", "paths"} <= parameters["join"]  # posixpath.join, ntpath.join
    assert "iterable" in parameters["join"]  # str.join
    assert "deprecated" not in parameters  # a contract: every definition takes LiteralString
    assert "__init__" not in parameters  # warnings.deprecated.__init__
    assert "execute" not in parameters  # sqlite3's: str in the stock stubs


def test_mypys_typeshed_has_no_str_method_overloads(typeshed: Path) -> None:
    parameters = literal_preserving_parameters(typeshed)
    assert "iterable" not in parameters["join"]
    assert "strip" not in parameters
